/**
 * The service page, part 3: its script and its style sheet, served as
 * resources of their own (`GET <path>?page.js`, `?page.css`), so that the
 * page's Content-Security-Policy allows no inline script or style.
 */

/**
 * The "try it" forms: each posts its (edited) envelope to the page's own
 * path, in the version chosen, with that version's media type and action,
 * and shows the status and the reply as text.
 */
export const PAGE_SCRIPT = `'use strict'
;(function () {
  var MEDIA = { '1.1': 'text/xml; charset=utf-8', '1.2': 'application/soap+xml; charset=utf-8' }
  function current (form) {
    return form.querySelector('input[name="version"]:checked').value
  }
  function show (form) {
    var version = current(form)
    form.querySelectorAll('textarea[data-version]').forEach(function (area) {
      area.hidden = area.getAttribute('data-version') !== version
    })
  }
  document.querySelectorAll('form.try').forEach(function (form) {
    form.querySelectorAll('input[name="version"]').forEach(function (radio) {
      radio.addEventListener('change', function () { show(form) })
    })
    show(form)
    form.addEventListener('submit', function (event) {
      event.preventDefault()
      var version = current(form)
      var action = form.getAttribute('data-action')
      var body = form.querySelector('textarea[data-version="' + version + '"]').value
      var headers = {}
      if (version === '1.1') {
        headers['content-type'] = MEDIA['1.1']
        headers.soapaction = JSON.stringify(action)
      } else {
        headers['content-type'] = MEDIA['1.2'] + '; action=' + JSON.stringify(action)
      }
      var status = form.querySelector('.status')
      var reply = form.querySelector('.reply')
      status.textContent = 'Sending…'
      reply.textContent = ''
      fetch(window.location.pathname, { method: 'POST', headers: headers, body: body, credentials: 'same-origin' })
        .then(function (response) {
          return response.text().then(function (text) {
            status.textContent = response.status + ' ' + response.statusText
            reply.textContent = text
          })
        })
        .catch(function (err) {
          status.textContent = 'Not sent: ' + err.message
        })
    })
  })
})()
`

export const PAGE_STYLE = `body {
  font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem; color: #1b1f24;
}
h1 { margin-bottom: .2rem; } h2 { border-top: 1px solid #d0d7de; padding-top: 1rem; margin-top: 2rem; }
code, pre, textarea { font: 13px/1.4 ui-monospace, monospace; }
.namespace, .links { color: #57606a; }
.doc { white-space: pre-line; background: #f6f8fa; padding: .5rem .8rem; border-left: 3px solid #0969da; }
nav ol { columns: 3 14rem; padding-left: 1.5rem; }
table { border-collapse: collapse; width: 100%; margin: .3rem 0 1rem; }
th, td { text-align: left; border-bottom: 1px solid #eaeef2; padding: .2rem .5rem; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.name { white-space: nowrap; }
td.name code { padding-left: calc(var(--depth, 0) * 1.2rem); }
.d1 { --depth: 1 } .d2 { --depth: 2 } .d3 { --depth: 3 } .d4 { --depth: 4 }
.d5 { --depth: 5 } .d6 { --depth: 6 } .d7 { --depth: 7 } .d8 { --depth: 8 }
.values code { background: #eef2f6; margin-right: .3rem; padding: 0 .2rem; }
textarea { width: 100%; box-sizing: border-box; }
form.try fieldset { border: 0; padding: 0; margin: .3rem 0; }
.reply { background: #f6f8fa; padding: .5rem; white-space: pre-wrap; word-break: break-all; min-height: 1rem; }
.status { font-weight: 600; }
`
