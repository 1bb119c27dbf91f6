-- Rows that grow with traffic get time-ordered ids (UUIDv7, RFC 9562) instead of random ones
-- (docs/performance.md, "Table size"). The service makes them in JavaScript
-- (src/store/row-id.ts); this function makes the same for ids written by SQL (callback
-- deliveries). PostgreSQL 18 has uuidv7(); 15 does not.
--
-- Why: a random key sends every insert to a random leaf page of each index that leads with it.
-- Once those indexes outgrow shared_buffers, each create reads and dirties pages that are not in
-- memory (and writes a full-page image of each after a checkpoint), so throughput falls as the
-- table grows. A key that starts with the time lands on the right-hand edge, in pages that are hot.
--
-- The first 48 bits are the Unix time in milliseconds; version 7 and the RFC 4122 variant; the
-- remaining 74 bits come from gen_random_uuid(). Existing rows keep their ids: both kinds coexist
-- in every index.
CREATE FUNCTION uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
              PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
              FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;
