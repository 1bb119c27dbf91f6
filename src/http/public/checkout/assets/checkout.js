// Tijori hosted checkout: the page's only script (served by Tijori, allowed by its CSP).
// It never decides the payment state: it asks the server (token-scoped status endpoint) and
// re-renders the server's page when the state changes.
(function () {
  'use strict';
  var body = document.body;
  var token = body.getAttribute('data-token');
  var status = body.getAttribute('data-status');
  var base = '/checkout/' + encodeURIComponent(token);
  var clockOffsetMs = 0; // server time minus browser time

  function post(path, payload) {
    return fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(payload),
      credentials: 'same-origin',
    }).then(function (res) {
      return res.json().then(
        function (json) { return { status: res.status, json: json }; },
        function () { return { status: res.status, json: null }; }
      );
    });
  }

  function setError(name, message) {
    var input = document.getElementById(name);
    var out = document.getElementById(name + '-error');
    if (input) input.setAttribute('aria-invalid', message ? 'true' : 'false');
    if (out) out.textContent = message || '';
  }

  function formError(form, message) {
    var out = form.querySelector('[data-form-error]');
    if (out) out.textContent = message || '';
  }

  var rules = {
    customer_name: function (v) { return v.trim().length === 0 ? 'Enter your name.' : v.length > 120 ? 'Use at most 120 characters.' : ''; },
    customer_email: function (v) { return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) && v.length <= 190 ? '' : 'Enter a valid email address.'; },
    customer_phone: function (v) { return /^[6-9][0-9]{9}$/.test(v.trim()) ? '' : 'Enter a 10-digit Indian mobile number, without +91.'; },
  };

  var details = document.getElementById('details-form');
  if (details) {
    details.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var values = {
        customer_name: details.customer_name.value,
        customer_email: details.customer_email.value,
        customer_phone: details.customer_phone.value,
        customer_consent: details.customer_consent.checked,
      };
      var firstBad = null;
      Object.keys(rules).forEach(function (k) {
        var msg = rules[k](values[k]);
        setError(k, msg);
        if (msg && !firstBad) firstBad = k;
      });
      var consentMsg = values.customer_consent ? '' : 'Please confirm to continue.';
      setError('customer_consent', consentMsg);
      if (consentMsg && !firstBad) firstBad = 'customer_consent';
      formError(details, '');
      if (firstBad) {
        document.getElementById(firstBad).focus();
        return;
      }
      var button = details.querySelector('button[type="submit"]');
      button.disabled = true;
      post('/details', {
        customer_name: values.customer_name.trim(),
        customer_email: values.customer_email.trim(),
        customer_phone: values.customer_phone.trim(),
        customer_consent: true,
      }).then(function (r) {
        if (r.status < 300) return window.location.reload();
        button.disabled = false;
        var err = r.json && r.json.error;
        if (err && err.details) {
          err.details.forEach(function (d) { setError(d.field, d.issue); });
        }
        formError(details, err ? err.message : 'Something went wrong. Please try again.');
      }, function () {
        button.disabled = false;
        formError(details, 'Network error. Check your connection and try again.');
      });
    });
  }

  var reference = document.getElementById('reference-form');
  if (reference) {
    reference.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var v = reference.payer_reference.value.trim();
      if (!/^[0-9]{12}$/.test(v)) {
        setError('payer_reference', 'Enter the 12-digit UPI reference number (UTR) shown by your app.');
        reference.payer_reference.focus();
        return;
      }
      setError('payer_reference', '');
      post('/reference', { payer_reference: v }).then(function (r) {
        if (r.status < 300) return window.location.reload();
        var err = r.json && r.json.error;
        setError('payer_reference', err ? err.message : 'Could not save the reference. Try again.');
      });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll('[data-simulate]'), function (button) {
    button.addEventListener('click', function () {
      button.disabled = true;
      post('/simulate', { outcome: button.getAttribute('data-simulate') }).then(function () { poll(); });
    });
  });

  var countdown = document.getElementById('countdown');
  var expiresAt = countdown ? Date.parse(countdown.getAttribute('data-expires-at')) : NaN;
  function tick() {
    if (!countdown || isNaN(expiresAt)) return;
    var left = Math.max(0, Math.floor((expiresAt - (Date.now() + clockOffsetMs)) / 1000));
    var m = Math.floor(left / 60);
    var s = left % 60;
    countdown.querySelector('[data-left]').textContent = m + ':' + (s < 10 ? '0' : '') + s;
    if (left === 0) poll();
  }

  var polling = false;
  function poll() {
    if (polling) return;
    polling = true;
    fetch(base + '/status', { headers: { accept: 'application/json' }, cache: 'no-store' })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (json) {
        polling = false;
        if (!json || !json.data) return;
        if (json.data.server_time) clockOffsetMs = Date.parse(json.data.server_time) - Date.now();
        if (json.data.status !== status) window.location.reload();
      }, function () { polling = false; });
  }

  var final = body.getAttribute('data-final') === 'true';
  if (!final) {
    poll();
    setInterval(poll, 2500);
    if (countdown) {
      tick();
      setInterval(tick, 1000);
    }
  }
})();
