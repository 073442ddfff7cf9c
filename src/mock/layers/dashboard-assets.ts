// The dashboard's browser script and style sheet, served by dashboard.ts from /__mock/ui/. They
// live in a module (not files beside it) so the built package and the browser bundle carry
// them without a copy step. The script is plain ES2020 for the browser: no framework, no build.
// Everything a server sent is shown with textContent, never parsed as markup.

export const DASHBOARD_SCRIPT = String.raw`'use strict';
(() => {
  const body = document.body;
  const mode = body.dataset.mode;
  const operations = (body.dataset.operations || '').split(' ').filter(Boolean);
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 300;

  // A control token (flag-admin mock --control-token) comes in the fragment, which no request
  // carries to a server or a log: /__mock/ui#token=... (also when added to an open page).
  function absorbToken() {
    const fragment = new URLSearchParams(location.hash.slice(1));
    if (!fragment.has('token')) return;
    sessionStorage.setItem('flag-admin-control-token', fragment.get('token'));
    history.replaceState(null, '', location.pathname + location.search);
  }
  absorbToken();
  window.addEventListener('hashchange', absorbToken);

  let session = 'default';
  let selected = undefined;
  // When each session was last reset from here, shown beside it until the page reloads.
  const resets = new Map();
  let shown = '';

  async function call(method, path, options = {}) {
    const headers = { 'x-mock-session': options.session || session };
    const token = sessionStorage.getItem('flag-admin-control-token');
    if (token) headers['x-mock-control-token'] = token;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    const json = text && (response.headers.get('content-type') || '').includes('json') ? JSON.parse(text) : undefined;
    if (!response.ok) throw new Error((json && json.message) || response.status + ' ' + response.statusText);
    return json;
  }

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === false) continue;
      if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) if (child !== undefined && child !== null) node.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
    return node;
  }

  function say(text, failed) {
    const status = $('status');
    status.textContent = text;
    status.className = failed ? 'failed' : '';
  }

  function options(select, values, keepFirst) {
    const first = keepFirst ? [select.options[0]] : [];
    select.replaceChildren(...first, ...values.map((v) => el('option', { value: v }, v)));
  }

  function query() {
    const params = new URLSearchParams();
    const operation = $('filter-operation').value;
    const status = $('filter-status').value.trim();
    const verdict = $('filter-verdict').value;
    if (operation) params.set('operationId', operation);
    if (/^[1-5][0-9][0-9]$/.test(status)) params.set('status', status);
    if (verdict) params.set('verdict', verdict);
    const text = params.toString();
    return text ? '?' + text : '';
  }

  // Errors and warnings apart: an entry, or a group of findings, shows when it has one of the chosen severity.
  function severityWanted(severities) {
    const wanted = $('filter-severity') ? $('filter-severity').value : '';
    return !wanted || severities.includes(wanted);
  }

  function renderJournal(entries) {
    const rows = entries
      .filter((entry) => severityWanted((entry.findings || []).map((f) => f.severity)))
      .slice()
      .reverse()
      .map((entry) =>
        el(
          'tr',
          { 'data-seq': entry.seq, class: (entry.verdict === 'not conformant' ? 'bad' : entry.verdict === 'not judged' ? 'unjudged' : entry.findings ? 'warned' : '') + (selected && selected.seq === entry.seq ? ' selected' : ''), onclick: () => select(entry) },
          el('td', {}, entry.seq),
          el('td', {}, entry.time.slice(11, 23)),
          el('td', {}, entry.method),
          el('td', { class: 'path' }, entry.path),
          el('td', {}, entry.operationId || '-'),
          el('td', { class: 'status' }, entry.status),
          el('td', {}, entry.durationMs.toFixed(1)),
          el('td', {}, entry.keyPresent ? 'present' : 'absent'),
          el('td', { class: 'verdict', title: entry.note || '' }, entry.verdict + (entry.findings ? ' (' + entry.findings.length + ')' : '')),
        ),
      );
    $('journal').tBodies[0].replaceChildren(...rows);
  }

  function findingView(finding) {
    return el(
      'div',
      { class: 'finding ' + finding.severity },
      el('h3', {}, finding.checkId + ': ' + finding.title),
      el('p', {}, finding.message),
      el('dl', {},
        el('dt', {}, 'expected'), el('dd', {}, finding.expected),
        el('dt', {}, 'got'), el('dd', {}, finding.got),
        finding.schemaPointer && [el('dt', {}, 'schema'), el('dd', {}, finding.schemaPointer)],
        finding.instancePointer && [el('dt', {}, 'instance'), el('dd', {}, finding.instancePointer)],
        finding.response && [el('dt', {}, 'response'), el('dd', {}, finding.response.status + ' ' + (finding.response.contentType || '') + ' ' + finding.response.excerpt)],
      ),
      el('pre', { class: 'curl' }, finding.curl),
    );
  }

  function select(entry) {
    selected = entry;
    const { findings, ...fields } = entry;
    $('details').replaceChildren(el('h2', {}, 'Entry ' + entry.seq), el('pre', { id: 'entry-json' }, JSON.stringify(fields, null, 2)), ...(findings || []).map(findingView));
    for (const row of $('journal').tBodies[0].rows) row.classList.toggle('selected', row.dataset.seq === String(entry.seq));
  }

  // The proxy's findings as the report groups them (conformance/report/group-findings.ts): one item per rule and
  // cause with its count, the first and the last request it was seen on (links to their journal entries), and
  // the first one's evidence.
  function renderFindings(report, entries) {
    const bySeq = new Map(entries.map((e) => [e.seq, e]));
    const link = (finding) => {
      const entry = bySeq.get(finding.seq);
      const text = '#' + finding.seq + ' ' + finding.request.method + ' ' + finding.request.url.replace(report.target, '');
      return entry ? el('a', { href: '#', onclick: (event) => { event.preventDefault(); select(entry); } }, text) : el('span', { title: 'no longer in the journal' }, text);
    };
    const groups = report.findingGroups.filter((group) => severityWanted([group.severity]));
    const items = groups.map((group) => {
      const first = report.findings[group.examples[0]];
      const last = report.findings[group.lastIndex];
      return el(
        'li',
        { class: 'group ' + group.severity, 'data-check': group.checkId },
        el('h3', {}, el('span', { class: 'severity' }, group.severity), ' ', group.checkId, ' ', el('span', { class: 'count' }, '×' + group.count), ' ', el('span', { class: 'title' }, group.title)),
        el('dl', {},
          el('dt', {}, 'got'), el('dd', {}, group.got),
          el('dt', {}, 'expected'), el('dd', {}, group.expected),
          el('dt', {}, 'operations'), el('dd', {}, group.operationIds.join(', ')),
          el('dt', {}, 'first'), el('dd', { class: 'first' }, link(first)),
          group.count > 1 && [el('dt', {}, 'last'), el('dd', { class: 'last' }, link(last))],
        ),
        el('details', {}, el('summary', {}, 'evidence of the first'), findingView(first)),
      );
    });
    const errors = report.findingGroups.filter((g) => g.severity === 'error');
    const warnings = report.findingGroups.filter((g) => g.severity === 'warning');
    const sum = (list) => list.reduce((n, g) => n + g.count, 0);
    const counted = (n, word) => n + ' ' + word + (n === 1 ? '' : 's');
    $('finding-summary').textContent = counted(sum(errors), 'error') + ' in ' + counted(errors.length, 'group') + ', ' + counted(sum(warnings), 'warning') + ' in ' + counted(warnings.length, 'group') + '.';
    $('finding-list').replaceChildren(...items);
    $('key-list').replaceChildren(...report.keys.flatMap((key) => [el('dt', {}, '$' + key.variable), el('dd', {}, key.standsFor)]));
  }

  async function refreshSessions() {
    const { sessions } = await call('GET', '/__mock/sessions');
    const picker = $('filter-session');
    if (picker.options.length !== sessions.length || [...picker.options].some((o, i) => o.value !== sessions[i])) {
      options(picker, sessions);
      picker.value = sessions.includes(session) ? session : 'default';
    }
    $('session-list').replaceChildren(
      ...sessions.map((name) =>
        el('li', { 'data-session': name }, el('span', {}, name), ' ', el('button', { type: 'button', class: 'reset', onclick: () => reset(name) }, 'Reset'), resets.has(name) ? el('span', { class: 'hint' }, ' reset to the fixtures at ' + resets.get(name)) : undefined),
      ),
    );
    const { rules } = await call('GET', '/__mock/rules');
    $('rules-session').textContent = session;
    $('rule-list').replaceChildren(
      ...rules.map((rule) =>
        el('li', {}, rule.operationId + ': ' + [rule.code !== undefined && 'answer ' + rule.code, rule.example !== undefined && 'example ' + rule.example, rule.delay !== undefined && 'wait ' + rule.delay + ' ms'].filter(Boolean).join(', ') + (rule.count !== undefined ? ' (next ' + rule.count + ')' : ' (every request)')),
      ),
    );
  }

  async function reset(name) {
    await call('POST', '/__mock/reset', { session: name });
    resets.set(name, new Date().toTimeString().slice(0, 8));
    shown = '';
    await refresh();
  }

  async function refresh() {
    try {
      if (mode === 'mock') await refreshSessions();
      else {
        const picker = $('filter-session');
        if (picker.options.length === 0) options(picker, ['default']);
      }
      const { entries } = await call('GET', '/__mock/journal' + query());
      // Redraw only when something changed: a row the user is reading stays put.
      const fingerprint = session + query() + ($('filter-severity') ? $('filter-severity').value : '') + entries.map((e) => e.seq + e.verdict).join(',');
      if (fingerprint !== shown) {
        shown = fingerprint;
        renderJournal(entries);
        if (mode === 'proxy') renderFindings(await call('GET', '/__mock/report'), entries);
      }
      say(entries.length + ' entries, live');
    } catch (error) {
      say(String(error.message || error), true);
    }
  }

  function number(input) {
    const text = input.value.trim();
    return text === '' ? undefined : Number(text);
  }

  options($('filter-operation'), operations, true);
  for (const id of ['filter-operation', 'filter-verdict', 'filter-session', 'filter-severity']) if ($(id)) $(id).addEventListener('change', () => { session = $('filter-session').value || 'default'; refresh(); });
  $('filter-status').addEventListener('input', () => refresh());
  if (mode === 'mock') {
    options($('rule-operation'), operations);
    $('rule-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const rule = { operationId: $('rule-operation').value, code: number($('rule-code')), count: number($('rule-count')), delay: number($('rule-delay')) };
      try {
        await call('POST', '/__mock/rules', { body: rule });
        $('rule-error').textContent = '';
        await refresh();
      } catch (error) {
        $('rule-error').textContent = String(error.message || error);
      }
    });
    $('clear-rules').addEventListener('click', async () => {
      await call('DELETE', '/__mock/rules');
      await refresh();
    });
  }
  refresh();
  setInterval(refresh, POLL_MS);
})();
`;

export const DASHBOARD_STYLE = `
:root { font-family: system-ui, sans-serif; font-size: 14px; color: #1d2330; background: #f6f7f9; }
body { margin: 0; }
header { display: flex; align-items: baseline; gap: 1rem; padding: .5rem 1rem; background: #1d2330; color: #fff; }
header h1 { font-size: 1.1rem; margin: 0; }
#status.failed { color: #ffb4b4; }
/* The journal spans the page; entry, findings and keys sit side by side below it. Only a wide screen gets the
   panels beside the journal: at 1280 px a path of 40 characters stays on one line (issue 19). */
main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; padding: 1rem; }
aside { display: grid; grid-template-columns: repeat(auto-fit, minmax(24rem, 1fr)); gap: 0 1rem; align-items: start; }
@media (min-width: 1800px) { main { grid-template-columns: minmax(0, 3fr) minmax(24rem, 2fr); } aside { grid-template-columns: minmax(0, 1fr); } }
.scroll { max-height: 45vh; overflow: auto; }
thead th { position: sticky; top: 0; background: #fff; }
section { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: .5rem .75rem; margin-bottom: 1rem; }
h2 { font-size: 1rem; margin: .25rem 0 .5rem; }
h3 { font-size: .95rem; margin: .25rem 0; }
form label { margin-right: .75rem; white-space: nowrap; }
table { width: 100%; border-collapse: collapse; margin-top: .5rem; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid #eef0f3; white-space: nowrap; }
td.path { font-family: ui-monospace, monospace; white-space: normal; overflow-wrap: anywhere; width: 100%; min-width: 24ch; }
tbody tr { cursor: pointer; }
tbody tr:hover { background: #eef4ff; }
tr.selected { background: #dbe8ff; }
tr.bad td.verdict { color: #b00020; font-weight: 600; }
tr.warned td.verdict { color: #8a5a00; }
tr.unjudged td.verdict { color: #5b6474; font-style: italic; }
#finding-list { padding-left: 0; list-style: none; }
li.group { border-left: 4px solid #b00020; padding: .25rem .5rem; margin: .5rem 0; background: #fcf6f7; }
li.group.warning { border-color: #d08700; background: #fdf9f0; }
li.group .severity { text-transform: uppercase; font-size: .75rem; color: #5b6474; }
li.group .count { font-weight: 700; }
li.group .title { font-weight: 400; color: #3b4252; }
details > summary { cursor: pointer; color: #2a5bd7; }
#key-list dt { font-family: ui-monospace, monospace; }
pre { white-space: pre-wrap; word-break: break-all; background: #f6f7f9; padding: .5rem; border-radius: 4px; }
.finding { border-left: 4px solid #b00020; padding-left: .5rem; margin: .5rem 0; }
.finding.warning { border-color: #d08700; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .1rem .5rem; }
dt { color: #5b6474; }
dd { margin: 0; overflow-wrap: anywhere; }
#rule-error { color: #b00020; }
.hint { color: #5b6474; }
`;
