/**
 * Lists as cards on a phone (issue #32 item 3): below 720 px styles.css draws every table inside
 * a `.table-wrap` as one card a row, each cell led by its column's title. The title comes from
 * the cell's `data-label`, which this copies from the table's header row whenever the page's
 * rows change (one observer for every table of the app, so no page has to remember it).
 */
function label(root: ParentNode): void {
  for (const table of root.querySelectorAll('.table-wrap table')) {
    const titles = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, i) => {
        const t = titles[i] ?? '';
        if (cell.getAttribute('data-label') !== t) cell.setAttribute('data-label', t);
      });
    }
  }
}

export function labelTableCells(root: HTMLElement): void {
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      label(root);
    });
  }).observe(root, { childList: true, subtree: true });
}
