-- Plain http:// destinations for a developer's local receiver (CALLBACK_ALLOW_PRIVATE_NETWORKS
-- outside production, docs/callbacks.md). Which http:// URLs are acceptable (loopback/private hosts
-- only, never in production) is the service's rule (src/callbacks/destination-url.ts) and is
-- enforced again at connect time; the table keeps only the shape.
ALTER TABLE callback_destinations
  DROP CONSTRAINT callback_destinations_url_check,
  ADD CONSTRAINT callback_destinations_url_check
    CHECK ((url LIKE 'https://%' OR url LIKE 'http://%') AND char_length(url) <= 2048);
