// Tijori hosted checkout: the page's only script (served by Tijori, allowed by its CSP).
// It never decides the payment state: it asks the server (token-scoped status endpoint) and
// re-renders the server's page when the state changes. It ignores the URL's query entirely.
(function () {
  'use strict';
  var body = document.body;
  var token = body.getAttribute('data-token');
  var status = body.getAttribute('data-status');
  var base = '/checkout/' + encodeURIComponent(token);
  var clockOffsetMs = 0; // server time minus browser time
  var FOCUS_KEY = 'tijori-checkout-focus';

  // After a state change the server renders a new page; move focus to its heading so a screen
  // reader reads the new step instead of starting over at the top.
  try {
    if (window.sessionStorage.getItem(FOCUS_KEY) === token) {
      window.sessionStorage.removeItem(FOCUS_KEY);
      var h1 = document.querySelector('h1');
      if (h1) {
        h1.setAttribute('tabindex', '-1');
        h1.focus();
      }
    }
  } catch { /* storage unavailable: focus stays at the top */ }

  function reload() {
    try { window.sessionStorage.setItem(FOCUS_KEY, token); } catch { /* ignore */ }
    window.location.reload();
  }

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

  function errorMessage(r, fallback) {
    var err = r && r.json && r.json.error;
    if (err && err.code === 'INVALID_STATE') return 'This payment has changed. The page will update.';
    if (err && err.code === 'RATE_LIMITED') return 'Too many attempts. Wait a moment and try again.';
    return (err && err.message) || fallback;
  }

  // The phone rule's patterns come from the server (src/domain/phone.ts, in the field's data
  // attributes): drop separators, then one +91/91/0 prefix, then check the 10 digits.
  var phoneInput = document.getElementById('customer_phone');
  function phonePattern(name, flags) {
    var source = phoneInput && phoneInput.getAttribute('data-' + name);
    return source ? new RegExp(source, flags) : null;
  }
  var phoneRule = { separators: phonePattern('separators', 'g'), prefix: phonePattern('prefix', ''), mobile: phonePattern('mobile', '') };
  function normalisePhone(v) {
    if (!phoneRule.separators || !phoneRule.prefix || !phoneRule.mobile) return null;
    var digits = v.replace(phoneRule.separators, '').replace(phoneRule.prefix, '');
    return phoneRule.mobile.test(digits) ? digits : null;
  }
  if (phoneInput) {
    // "+91 98765 43210" pasted or autofilled becomes "9876543210" once the payer leaves the field.
    phoneInput.addEventListener('change', function () {
      var n = normalisePhone(phoneInput.value);
      if (n) phoneInput.value = n;
    });
  }

  var rules = {
    customer_name: function (v) { return v.trim().length === 0 ? 'Enter your full name.' : v.length > 120 ? 'Use at most 120 characters.' : ''; },
    customer_email: function (v) { return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) && v.length <= 190 ? '' : 'Enter a valid email address, like name@example.com.'; },
    customer_phone: function (v) { return normalisePhone(v) ? '' : 'Enter a 10-digit Indian mobile number starting with 6, 7, 8 or 9 (+91 or 0 in front is fine).'; },
    customer_consent: function (checked) { return checked ? '' : 'Tick the box to agree before you continue.'; },
  };

  var details = document.getElementById('details-form');
  if (details) {
    var formError = document.getElementById('details-error');
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
      formError.textContent = '';
      if (firstBad) {
        document.getElementById(firstBad).focus();
        return;
      }
      var button = document.getElementById('details-submit');
      button.disabled = true;
      post('/details', {
        customer_name: values.customer_name.trim(),
        customer_email: values.customer_email.trim(),
        customer_phone: normalisePhone(values.customer_phone),
        customer_consent: true,
      }).then(function (r) {
        if (r.status < 300) return reload();
        button.disabled = false;
        var err = r.json && r.json.error;
        if (err && err.code === 'INVALID_STATE') return reload();
        (err && err.details || []).forEach(function (d) {
          var rule = rules[d.field];
          setError(d.field, rule ? rule(values[d.field]) || 'Check this field: ' + d.issue + '.' : d.issue);
        });
        formError.textContent = errorMessage(r, 'Something went wrong. Please try again.');
      }, function () {
        button.disabled = false;
        formError.textContent = 'Network error. Check your connection and try again.';
      });
    });
  }

  var reference = document.getElementById('reference-form');
  if (reference) {
    reference.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var v = reference.payer_reference.value.trim();
      if (!/^[0-9]{12}$/.test(v)) {
        setError('payer_reference', 'Enter the 12-digit UPI reference number (UTR) shown by your UPI app.');
        reference.payer_reference.focus();
        return;
      }
      setError('payer_reference', '');
      post('/reference', { payer_reference: v }).then(function (r) {
        if (r.status < 300) return reload();
        setError('payer_reference', errorMessage(r, 'Could not save the reference. Try again.'));
        poll();
      }, function () {
        setError('payer_reference', 'Network error. Check your connection and try again.');
      });
    });
  }

  var sandboxError = document.getElementById('sandbox-error');
  Array.prototype.forEach.call(document.querySelectorAll('[data-simulate]'), function (button) {
    button.addEventListener('click', function () {
      button.disabled = true;
      sandboxError.textContent = '';
      post('/simulate', { outcome: button.getAttribute('data-simulate') }).then(function (r) {
        if (r.status >= 300) {
          button.disabled = false;
          sandboxError.textContent = errorMessage(r, 'The sandbox did not answer. Try again.');
        }
        poll();
      }, function () {
        button.disabled = false;
        sandboxError.textContent = 'Network error. Try again.';
      });
    });
  });

  // The receipt's time in the payer's own time zone (the server wrote it in IST).
  Array.prototype.forEach.call(document.querySelectorAll('time[data-local-time]'), function (el) {
    var at = new Date(el.getAttribute('datetime'));
    if (isNaN(at.getTime())) return;
    try {
      el.textContent = new Intl.DateTimeFormat('en-IN', {
        day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short',
      }).format(at);
    } catch { /* no Intl: the server's IST text stays */ }
  });

  var countdown = document.getElementById('countdown');
  var announce = document.getElementById('countdown-announce');
  var expiresAt = countdown ? Date.parse(countdown.getAttribute('data-expires-at')) : NaN;
  var MILESTONES = [[300, '5 minutes left to pay.'], [60, '1 minute left to pay.'], [0, 'The time to pay has run out.']];
  var lastLeft = null;
  function tick() {
    if (!countdown || isNaN(expiresAt)) return;
    var left = Math.max(0, Math.floor((expiresAt - (Date.now() + clockOffsetMs)) / 1000));
    var m = Math.floor(left / 60);
    var s = left % 60;
    countdown.querySelector('[data-left]').textContent = m + ':' + (s < 10 ? '0' : '') + s;
    // The visible clock is not a live region (it would talk every second): announce the
    // milestones the clock crosses while the page is open.
    MILESTONES.forEach(function (mark) {
      if (announce && lastLeft !== null && lastLeft > mark[0] && left <= mark[0]) announce.textContent = mark[1];
    });
    lastLeft = left;
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
        if (json.data.status !== status) reload();
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
