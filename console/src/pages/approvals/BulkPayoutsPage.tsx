/**
 * "Bulk payouts" (contract §5, §6): a maker uploads a CSV ("CSV file", "Upload file"); every row
 * is checked first and the problems are listed by line, or the file is stored with a preview
 * (count, total, totals per mode). A checker other than the uploader approves or rejects the whole
 * file; an approved file is paid row by row, its progress shown live (polled), and each row's
 * result downloadable as CSV.
 */
import { type FormEvent, Fragment, useState } from 'react';
import { api, ApiError, describe } from '../../api.js';
import { Status, Time } from '../../components.js';
import { Loadable, useResource } from '../../data.js';
import { ApproveOrReject, DecisionOutcome, useDecision } from '../DecisionForm.js';
import { formatPaise, words } from '../../format.js';
import { type Column, RowsTable } from '../columns.js';
import { Pager, useCursorPages } from '../CursorPages.js';
import { TableScroll } from '../money/links.js';
import { DetailPanel } from '../DetailPanel.js';
import { QueueTable } from '../QueueTable.js';
import type { RowOf } from '../../wire.js';

type BulkFile = RowOf<'consoleListBulkPayouts'>;

const HEADER = 'name,account_number,ifsc,mobile,amount_paise,mode,remarks,client_reference';

function Preview({ f }: { f: BulkFile }) {
  return (
    <dl className="facts">
      <dt>Rows</dt>
      <dd>{f.row_count}</dd>
      <dt>Total</dt>
      <dd>{formatPaise(f.total_paise)}</dd>
      {Object.entries(f.totals_by_mode).map(([mode, t]) => (
        <Fragment key={mode}>
          <dt>{mode}</dt>
          <dd>
            {t.count} row{t.count === 1 ? '' : 's'}, {formatPaise(t.total_paise)}
          </dd>
        </Fragment>
      ))}
      <dt>Status</dt>
      <dd>
        {words(f.status)}
        {f.decider ? ` (decided by ${f.decider})` : ''}
        {f.decision_note ? `: ${f.decision_note}` : ''}
      </dd>
      <dt>Progress</dt>
      <dd aria-live="polite">
        {f.progress.created} of {f.row_count} submitted · {f.progress.succeeded} succeeded · {f.progress.failed} failed
        {f.progress.not_created ? ` · ${f.progress.not_created} could not be created` : ''}
      </dd>
    </dl>
  );
}

type FileRow = RowOf<'consoleBulkPayoutRows'>;

const ROW_COLUMNS: Column<FileRow>[] = [
  { title: 'Line', cell: (r) => r.line, numeric: true },
  { title: 'Name', cell: (r) => r.name },
  { title: 'Account', cell: (r) => `•••• ${r.account_number_last4}` },
  { title: 'IFSC / bank', cell: (r) => `${r.ifsc} · ${r.bank_name}` },
  { title: 'Amount', cell: (r) => formatPaise(r.amount_paise), numeric: true },
  { title: 'Mode', cell: (r) => r.mode },
  { title: 'Payout', cell: (r) => (r.error ? `Not created: ${r.error}` : r.status ? `${r.transaction_id ?? ''} ${words(r.status)}` : 'Waits for approval') },
];

/** The rows of a file, 25 a page: what a checker approves, not only its totals (issue #32 item 5). */
function FileRows({ f }: { f: BulkFile }) {
  // Each row's payout status follows, every second, while the file is being paid.
  const { rows, error, pager } = useCursorPages<FileRow>(`/bulk-payouts/${encodeURIComponent(f.id)}/rows`, 'limit=25', { poll: { every: 1000, while: () => beingPaid([f]) } });
  return (
    <section aria-labelledby="file-rows-title">
      <h3 id="file-rows-title">Rows of {f.file_name}</h3>
      <Loadable data={rows} error={error}>
        {(rows) => (
          <TableScroll label={`Table of the rows of ${f.file_name}`}>
            <RowsTable columns={ROW_COLUMNS} rows={rows} rowKey={(r) => r.line} alignTitles />
          </TableScroll>
        )}
      </Loadable>
      <Pager label={`Pages of rows of ${f.file_name}`} pager={pager} />
    </section>
  );
}

const COLUMNS: Column<BulkFile>[] = [
  { title: 'Uploaded', cell: (f) => <Time iso={f.created_at} /> },
  { title: 'File', cell: (f) => f.file_name },
  { title: 'Rows', cell: (f) => f.row_count, numeric: true },
  { title: 'Total', cell: (f) => formatPaise(f.total_paise), numeric: true },
  { title: 'Status', cell: (f) => <Status status={f.status} /> },
  { title: 'Uploaded by', cell: (f) => f.uploader ?? '—' },
];

/** Whether a file of the list is still being paid (its rows not all settled). */
const beingPaid = (files: BulkFile[]) =>
  files.some((f) => f.status === 'APPROVED' || (f.status === 'COMPLETED' && f.progress.succeeded + f.progress.failed + f.progress.not_created < f.row_count));

export function BulkPayoutsPage({ canMake, canCheck, self }: { canMake: boolean; canCheck: boolean; self: string }) {
  // Live progress: read again every second while a file is being paid.
  const { data: files, error: loadError } = useResource<BulkFile[]>('/bulk-payouts', { poll: { every: 1000, while: beingPaid } });
  const [file, setFile] = useState<File | null>(null);
  const [issues, setIssues] = useState<{ field: string; issue: string }[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  // An upload or a decision reads the files again (and the payouts a file made).
  const { busy, error, setError, done, setDone, decide: run } = useDecision('/bulk-payouts', '/payouts');

  async function upload(e: FormEvent) {
    e.preventDefault();
    setIssues([]);
    if (!file) {
      setDone(null);
      return setError('Choose a CSV file first.');
    }
    await run(
      async () => {
        const f = await api<BulkFile>('POST', `/bulk-payouts?file_name=${encodeURIComponent(file.name)}`, undefined, { blob: file, type: 'text/csv' });
        setSelected(f.id);
        return `${f.file_name} uploaded: ${f.row_count} rows, ${formatPaise(f.total_paise)}. It waits for a checker.`;
      },
      (err) => {
        if (!(err instanceof ApiError && err.code === 'VALIDATION_FAILED')) return describe(err);
        setIssues(err.details);
        return err.message;
      },
    );
  }

  async function decide(action: 'approve' | 'reject', f: BulkFile, note: string) {
    await run(async () => {
      await api('POST', `/bulk-payouts/${f.id}/${action}`, action === 'reject' ? { note } : {});
      return action === 'approve' ? `${f.file_name} approved: its rows are being paid.` : `${f.file_name} rejected; nothing is paid.`;
    });
  }

  const current = files?.find((f) => f.id === selected) ?? null;
  return (
    <>
      <h1>Bulk payouts</h1>
      <DecisionOutcome error={error ?? loadError} done={done} />
      {issues.length > 0 ? (
        <section className="panel" aria-labelledby="issues-title">
          <h2 id="issues-title">Problems in the file</h2>
          <ul className="issues">
            {issues.map((i) => (
              <li key={`${i.field} ${i.issue}`}>
                {i.field} {i.issue}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {canMake ? (
        <form className="panel" onSubmit={(e) => void upload(e)} aria-labelledby="upload-title">
          <h2 id="upload-title">Upload a file</h2>
          <p className="hint" id="csv-hint">
            CSV with the header <code>{HEADER}</code>, at most 10,000 rows. <strong>Amounts are in paise, not rupees</strong>: ₹1,500.00 is written <code>150000</code> (the single payout form takes rupees). Every row is checked before anything is created.
          </p>
          <label htmlFor="bulk-file">CSV file</label>
          <input id="bulk-file" type="file" accept=".csv,text/csv" aria-describedby="csv-hint" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          <button type="submit" disabled={busy}>
            Upload file
          </button>
        </form>
      ) : null}
      {current ? (
        <DetailPanel titleId="file-title" title={current.file_name} onClose={() => setSelected(null)}>
          <Preview f={current} />
          {/* Read once more (a new key) when the file is through, so its rows end with their last status. */}
          <FileRows key={`${current.id}-${beingPaid([current]) ? 'paying' : 'still'}`} f={current} />
          {current.status === 'PENDING_APPROVAL' && canCheck && current.uploaded_by !== self ? (
            <ApproveOrReject key={current.id} busy={busy} what={`the bulk file ${current.file_name} (${current.row_count} payout${current.row_count === 1 ? '' : 's'})`} amount={formatPaise(current.total_paise)} hint="Approving pays every row of the file; rejecting pays none." decide={(action, note) => void decide(action, current, note)} />
          ) : current.status === 'PENDING_APPROVAL' && current.uploaded_by === self ? (
            <p>You uploaded this file, so another checker must approve or reject it.</p>
          ) : null}
          {current.status === 'APPROVED' || current.status === 'COMPLETED' ? (
            <p>
              <a href={`/console/api/bulk-payouts/${current.id}/results.csv`} download>
                Download results (CSV)
              </a>
            </p>
          ) : null}
        </DetailPanel>
      ) : null}
      <QueueTable rows={files} error={loadError} empty="No bulk payout files yet." columns={COLUMNS} openLabel={(f) => `Open file ${f.file_name}`} onOpen={setSelected} />
    </>
  );
}
