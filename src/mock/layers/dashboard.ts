import type { MockResponse } from '../core/types.ts';
import type { ControlHandler } from './control-handlers.ts';
import { DASHBOARD_SCRIPT, DASHBOARD_STYLE } from './dashboard-assets.ts';
import { ENTRY_VERDICTS } from './journal.ts';

/** The control operations that serve the dashboard's page and files (no data in them). */
export const DASHBOARD_OPERATIONS: ReadonlySet<string> = new Set(['getDashboard', 'getDashboardScript', 'getDashboardStyle']);

/**
 * Served from the package, nothing from elsewhere: the page's script and style come from /__mock/ui.js and .css
 * and every call it makes goes to this server's control API.
 */
const DASHBOARD_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The dashboard at /__mock/ui (issue 15): the live journal with its filters and each entry's
 * details; on the mock the sessions with reset and the sticky rules with a form, on the proxy
 * each finding with its evidence. Plain DOM code (dashboard-assets.ts), no framework: five small
 * views over the control API, built with textContent so nothing a server sends becomes markup.
 */
export function dashboardHandlers(mode: 'mock' | 'proxy', operationIds: readonly string[]): Record<string, ControlHandler> {
  const page = dashboardPage(mode, operationIds);
  return {
    getDashboard: () => answer(page, 'text/html; charset=utf-8', { 'content-security-policy': DASHBOARD_CSP }),
    getDashboardScript: () => answer(DASHBOARD_SCRIPT, 'text/javascript; charset=utf-8', { 'cache-control': 'no-cache' }),
    getDashboardStyle: () => answer(DASHBOARD_STYLE, 'text/css; charset=utf-8', { 'cache-control': 'no-cache' }),
  };
}

function answer(body: string, type: string, headers: Record<string, string>): MockResponse {
  return { status: 200, headers: { 'content-type': type, 'x-content-type-options': 'nosniff', ...headers }, body };
}

function dashboardPage(mode: 'mock' | 'proxy', operationIds: readonly string[]): string {
  const title = mode === 'proxy' ? 'flag-admin proxy' : 'flag-admin mock';
  // Operation ids come from the spec; they are attribute-escaped all the same.
  const operations = operationIds.map((id) => id.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)).join(' ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}: dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__mock/ui.css">
<script src="/__mock/ui.js" defer></script>
</head>
<body data-mode="${mode}" data-operations="${operations}">
<header><h1>${title}</h1><span id="status" role="status"></span></header>
<main>
<section id="journal-panel" aria-label="Journal">
<form id="filters" aria-label="Filters">
<label>Session <select id="filter-session"></select></label>
<label>Operation <select id="filter-operation"><option value="">any</option></select></label>
<label>Status <input id="filter-status" inputmode="numeric" size="4" placeholder="any"></label>
<label>Verdict <select id="filter-verdict"><option value="">any</option>${ENTRY_VERDICTS.map((v) => `<option>${v}</option>`).join('')}</select></label>
${mode === 'proxy' ? '<label>Findings <select id="filter-severity"><option value="">any</option><option value="error">errors</option><option value="warning">warnings</option></select></label>' : ''}
</form>
<div class="scroll"><table id="journal"><thead><tr><th>#</th><th>time</th><th>method</th><th>path</th><th>operation</th><th>status</th><th>ms</th><th>key</th><th>verdict</th></tr></thead><tbody></tbody></table></div>
</section>
<aside>
<section id="details" aria-label="Entry"><h2>Entry</h2><p class="hint">Click a row of the journal.</p></section>
${
  mode === 'proxy'
    ? `<section id="findings" aria-label="Findings"><h2>Findings</h2><p><span id="finding-summary"></span> <a href="/__mock/report" id="report-json">report (JSON)</a> · <a href="/__mock/report?format=junit" id="report-junit">JUnit</a></p><ol id="finding-list"></ol></section>
<section id="keys" aria-label="Keys"><h2>Keys in curl lines</h2><p class="hint">Each key the traffic carried is a variable of its own; set it to the key it stands for to replay a finding.</p><dl id="key-list"></dl></section>`
    : `<section id="sessions" aria-label="Sessions"><h2>Sessions</h2><ul id="session-list"></ul></section>
<section id="rules" aria-label="Rules"><h2>Sticky rules of <span id="rules-session"></span></h2><ul id="rule-list"></ul>
<form id="rule-form">
<label>Operation <select id="rule-operation"></select></label>
<label>Answer status <input id="rule-code" inputmode="numeric" size="4" placeholder="403"></label>
<label>Next <input id="rule-count" inputmode="numeric" size="3" placeholder="all"> requests</label>
<label>Delay ms <input id="rule-delay" inputmode="numeric" size="5" placeholder="0"></label>
<button type="submit">Add rule</button> <button type="button" id="clear-rules">Clear rules</button>
<p id="rule-error" role="alert"></p>
</form></section>`
}
</aside>
</main>
</body>
</html>
`;
}
