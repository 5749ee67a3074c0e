// The Sweeps page (docs/sweeps.md): the sweeps run on this data folder with their progress
// (refreshed while one runs), one sweep's parameter sets in a sortable table, a heat map of a
// metric over two chosen parameters (or a strip over one), and the equity curves of the sets
// picked in the table, overlaid (each set's ok jobs joined and compounded: a line ends at the
// set's return). Read from GET /api/v1/sweeps...
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { errorText } from '../../lib/frame.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { Drawer } from '../../layout/drawer.tsx';
import {
  curveKey,
  curveStamp,
  dataText,
  detailStamp,
  figureText as fmt,
  curvePaths,
  heatColor,
  heatLabel,
  heatMap,
  type HeatValue,
  jobsOfSet,
  paramCell,
  setCurve,
  setJobsText,
  SET_METRICS,
  shownSweep,
  staleCurves,
  sortSets,
  type SetMetric,
  type SortKey,
} from './sweeps-view.ts';
import type { SweepSet, SweepSummaryWire, SweepWire } from '../../../../src-shared/types/sweeps.ts';
import { CommandLine, LikeLine, ResumeLine } from './sweep-commands.tsx';
import { SweepList } from './sweep-list.tsx';
import { rowKey, rowStop } from './row-keys.ts';
import './sweeps.css';

const COLORS = ['#4cc9f0', '#f72585', '#ffd166', '#06d6a0', '#b388ff', '#ff8c42'];

export function SweepsPanel() {
  const s = useServices();
  const open = useSel(s.workspace, (w) => w.overlay === 'sweeps');
  if (!open) return null;
  return (
    <Drawer title="Sweeps" testId="sweeps-panel" wide onClose={() => s.workspace.getState().actions.close()}>
      <SweepsBody />
    </Drawer>
  );
}

async function getData<T>(url: string): Promise<T> {
  const r = await fetch(url);
  const body = (await r.json()) as { code: number; message: string; data: T };
  if (body.code !== 0) throw new Error(body.message);
  return body.data;
}

/** GET /api/v1/sweep-example: the first sweep's commands on this service's data folder. */
interface SweepExample {
  data_dir: string | null;
  import: string;
  sweep: string;
}

/** A job as GET /api/v1/sweeps/{id}/jobs/{index} answers it (what the curves need). */
interface JobWire {
  start: number;
  until: number;
  status: string;
  metrics: { starting_equity: number } | null;
  equity: Array<[number, number]>;
}

/** A heat-map row's or column's React key: the bot's default apart from a value written 'bot default'. */
const heatKey = (v: HeatValue) => (v === null ? '\u0000bot default' : `${typeof v}:${String(v)}`);
const utc = (t: number) => `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
/** A curve's set, from its key (curveKey): "fast 3, slow 12". */
const legend = (key: string) =>
  Object.entries(JSON.parse(key.slice(key.indexOf(' ') + 1)) as Record<string, unknown>)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');

function SweepsBody() {
  const base = useServices().api.baseUrl;
  const [list, setList] = useState<SweepSummaryWire[] | null>(null);
  const [id, setId] = useState<string | null>(null);
  const [detail, setDetail] = useState<SweepWire | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [example, setExample] = useState<SweepExample | null>(null);
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'return', desc: true });
  const [axes, setAxes] = useState<{ x: string; y: string; metric: SetMetric }>({ x: '', y: '', metric: 'return' });
  // the picked sets and their curves, keyed by sweep and parameter set (curveKey): another
  // sweep's sets of the same parameters are other sets
  const [picked, setPicked] = useState<string[]>([]);
  // each with the set's results it was drawn from (curveStamp): read again when the set has more
  const [curves, setCurves] = useState<Record<string, { stamp: string; c: Array<[number, number]> }>>({});
  // the curves being read now, at the stamp they are read for
  const reading = useRef<Record<string, string>>({});
  // the sweep shown now, for answers that come after another was chosen
  const shown = useRef<string | null>(null);
  // the shown sweep's detail as read (detailStamp): read again only when its summary changes
  const read = useRef<string | null>(null);

  const load = useCallback(async () => {
    try {
      const l = await getData<SweepSummaryWire[]>(`${base}/api/v1/sweeps`);
      setList(l);
      // the chosen sweep, or the newest when it was removed meanwhile (its own sets and picks gone)
      const sel = shownSweep(l, id);
      if (sel !== id) {
        shown.current = sel;
        read.current = null;
        setId(sel);
        setDetail(null);
        setPicked([]);
      }
      const summary = l.find((w) => w.id === sel);
      if (sel !== null && summary !== undefined && read.current !== detailStamp(summary)) {
        const stamp = detailStamp(summary);
        const d = await getData<SweepWire>(`${base}/api/v1/sweeps/${sel}`);
        if (shown.current === sel) {
          setDetail(d);
          read.current = stamp;
        }
      }
      setError(null);
    } catch (e) {
      setError(`Could not read the sweeps: ${errorText(e)}`);
    }
  }, [base, id]);

  // the first sweep's commands on this service's folder, for the page without a sweep (asked once)
  const empty = list !== null && list.length === 0;
  useEffect(() => {
    if (!empty || example !== null) return;
    getData<SweepExample>(`${base}/api/v1/sweep-example`).then(setExample, (e: unknown) =>
      setError(`Could not read the example sweep: ${errorText(e)}`),
    );
  }, [base, empty, example]);

  useEffect(() => {
    void load();
    // progress while a sweep runs
    const t = setInterval(() => void load(), 2000);
    return () => clearInterval(t);
  }, [load]);

  useEffect(() => {
    if (detail === null) return;
    setAxes((a) =>
      detail.params.includes(a.x) && (a.y === '' || detail.params.includes(a.y))
        ? a
        : // one parameter: a strip over it (y '')
          { ...a, x: detail.params[0] ?? '', y: detail.params[1] ?? '' },
    );
  }, [detail]);

  /** Another sweep: its own sets, none picked. */
  const choose = (next: string) => {
    if (next === id) return;
    shown.current = next;
    read.current = null;
    setId(next);
    setDetail(null);
    setPicked([]);
  };

  const pick = (set: SweepSet) => {
    if (detail === null) return;
    const key = curveKey(detail.id, set.params);
    setPicked(picked.includes(key) ? picked.filter((k) => k !== key) : [...picked, key].slice(-COLORS.length));
  };

  // the picked sets' curves, read again when a set has results its curve lacks (picked while the
  // sweep ran: the line ends at the set's return in the table, not at its first jobs')
  useEffect(() => {
    if (detail === null) return;
    const drawn = Object.fromEntries(Object.entries(curves).map(([k, v]) => [k, v.stamp]));
    for (const st of staleCurves(detail, picked, { ...drawn, ...reading.current })) {
      const key = curveKey(detail.id, st.params);
      const stamp = curveStamp(st);
      reading.current[key] = stamp;
      Promise.all(
        jobsOfSet(detail, st.params).map((i) => getData<JobWire>(`${base}/api/v1/sweeps/${detail.id}/jobs/${i}`)),
      )
        .then(
          (jobs) => {
            const c = setCurve(
              jobs.map((j) => ({
                start: j.start,
                until: j.until,
                ok: j.status === 'ok',
                base: j.metrics?.starting_equity ?? 0,
                equity: j.equity,
              })),
            );
            setCurves((cs) => ({ ...cs, [key]: { stamp, c } }));
          },
          (e: unknown) => setError(`Could not read the equity curves: ${errorText(e)}`),
        )
        .finally(() => {
          if (reading.current[key] === stamp) delete reading.current[key];
        });
    }
  }, [base, detail, picked, curves]);

  const sets = useMemo(() => (detail === null ? [] : sortSets(detail.sets, sort.key, sort.desc)), [detail, sort]);
  // the sets' table is one Tab stop (row-keys.ts): the set last focused, else the first picked, else the first
  const [focusedSet, setFocusedSet] = useState<string | null>(null);
  const setStop = rowStop(detail === null ? [] : sets.map((st) => curveKey(detail.id, st.params)), focusedSet, picked);
  const map = useMemo(
    () =>
      detail === null || axes.x === '' ? null : heatMap(detail.sets, axes.x, axes.y, axes.metric, detail.defaults),
    [detail, axes],
  );
  const header = (key: SortKey, label: string) => (
    <th className="sortable" aria-sort={sort.key === key ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
      <button type="button" onClick={() => setSort({ key, desc: sort.key === key ? !sort.desc : true })}>
        {label}
        {sort.key === key ? (sort.desc ? ' ▼' : ' ▲') : ''}
      </button>
    </th>
  );
  const overlay = picked.flatMap((k, i) =>
    curves[k] === undefined ? [] : [{ c: curves[k].c, color: COLORS[i % COLORS.length], params: k }],
  );
  // across the sweep's span, from its start to its end (not from the first point drawn)
  const chart = curvePaths(
    overlay.map((o) => o.c),
    600,
    180,
    detail ?? undefined,
  );
  const strip = map !== null && (axes.y === '' || axes.y === axes.x);
  const selected = list?.find((w) => w.id === id);

  return (
    <div className="sweeps-panel">
      {error !== null && <p className="error">{error}</p>}
      {list !== null && list.length === 0 && (
        <div data-testid="sweeps-empty">
          <p>
            No sweep on this data folder yet. Import the data of the example, then run it (from the repository;
            docs/sweeps.md){example !== null && example.data_dir !== null ? `, both on ${example.data_dir}` : ''}:
          </p>
          {example !== null && (
            <>
              <CommandLine
                testId="sweeps-example-import"
                label="1. Import its data:"
                cmd={example.import}
                copyLabel="Copy the command that imports the example's data"
              />
              <CommandLine
                testId="sweeps-example-sweep"
                label="2. Run the sweep:"
                cmd={example.sweep}
                copyLabel="Copy the command that runs the example sweep"
              />
            </>
          )}
        </div>
      )}
      <section>
        <div className="sweep-scroll">
          <SweepList list={list ?? []} id={id} choose={choose} />
        </div>
        {selected !== undefined && <ResumeLine sweep={selected} />}
        {selected !== undefined && <LikeLine sweep={selected} />}
      </section>
      {detail !== null && (
        <>
          <p className="sweep-data" data-testid="sweep-data" title={dataText(detail).title}>
            {dataText(detail).text}
          </p>
          <section>
            <h3>Parameter sets</h3>
            <div className="sweep-scroll" data-testid="sweep-sets-scroll">
              <table className="data-table" data-testid="sweep-sets" aria-label="Parameter sets">
                <thead>
                  <tr>
                    {detail.params.map((p) => header(`param:${p}`, p))}
                    {header('return', 'return')}
                    {header('net_pnl', 'net PnL')}
                    {header('sharpe', 'Sharpe')}
                    {header('sortino', 'Sortino')}
                    {header('max_drawdown_ratio', 'max DD')}
                    {header('trades', 'trades')}
                    {header('win_rate', 'win rate')}
                    <th>jobs</th>
                  </tr>
                </thead>
                <tbody>
                  {sets.map((st, at) => {
                    const key = curveKey(detail.id, st.params);
                    const i = picked.indexOf(key);
                    return (
                      <tr
                        key={key}
                        className={i >= 0 ? 'selected' : ''}
                        aria-selected={i >= 0}
                        tabIndex={key === setStop ? 0 : -1}
                        onClick={() => pick(st)}
                        onFocus={() => setFocusedSet(key)}
                        onKeyDown={(e) => rowKey(e, at, sets.length, () => pick(st))}
                        title="Show its equity curves (Enter; the arrow keys move between the sets)"
                      >
                        {detail.params.map((p) => {
                          const c = paramCell(st.params, p, detail.defaults);
                          return (
                            <td key={p} title={c.title}>
                              {c.text}
                              {c.mark !== null && (
                                <span className="default-mark">
                                  {c.text === '' ? '' : ' '}
                                  {c.mark}
                                </span>
                              )}
                            </td>
                          );
                        })}
                        <td style={i >= 0 ? { color: COLORS[i] } : undefined}>
                          {st.ok === 0 && st.failed > 0 ? 'failed' : fmt(st.return, true)}
                        </td>
                        <td>{fmt(st.net_pnl)}</td>
                        <td>{fmt(st.sharpe)}</td>
                        <td>{fmt(st.sortino)}</td>
                        <td>{fmt(st.max_drawdown_ratio, true)}</td>
                        <td>{st.trades ?? '–'}</td>
                        <td>{fmt(st.win_rate, true)}</td>
                        <td className={st.failed > 0 ? 'warn' : undefined}>{setJobsText(st)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            {sets.some((st) => st.failed > 0) && (
              <p className="warn" data-testid="sweep-sets-failed">
                A set&apos;s figures are over its ok jobs only: a failed job&apos;s days are left out, and a set with no
                ok job has none (ranked last). See the jobs column.
              </p>
            )}
          </section>
          {map !== null && (
            <section>
              <h3>Heat map</h3>
              <div className="row">
                {(['x', 'y'] as const).map((k) => (
                  <label key={k}>
                    {k}{' '}
                    <select value={axes[k]} onChange={(e) => setAxes({ ...axes, [k]: e.target.value })}>
                      {k === 'y' && <option value="">(none: one row)</option>}
                      {detail.params.map((p) => (
                        <option key={p}>{p}</option>
                      ))}
                    </select>
                  </label>
                ))}
                <label>
                  metric{' '}
                  <select
                    value={axes.metric}
                    onChange={(e) => setAxes({ ...axes, metric: e.target.value as SetMetric })}
                  >
                    {SET_METRICS.map((m) => (
                      <option key={m}>{m}</option>
                    ))}
                  </select>
                </label>
              </div>
              <div className="sweep-scroll">
                <table className="heat-map" data-testid="sweep-heat-map">
                  <tbody>
                    {map.ys.map((yv, yi) => (
                      <tr key={heatKey(yv)}>
                        <th scope="row">{heatLabel(yv)}</th>
                        {map.xs.map((xv, xi) => {
                          const v = map.cells[yi][xi];
                          return (
                            <td
                              key={heatKey(xv)}
                              style={{ background: heatColor(v, map.min, map.max) }}
                              title={
                                strip
                                  ? `${axes.x} ${heatLabel(xv)}`
                                  : `${axes.x} ${heatLabel(xv)}, ${axes.y} ${heatLabel(yv)}`
                              }
                            >
                              {map.failed[yi][xi]
                                ? 'failed'
                                : fmt(
                                    v,
                                    axes.metric === 'return' ||
                                      axes.metric === 'max_drawdown_ratio' ||
                                      axes.metric === 'win_rate',
                                  )}
                            </td>
                          );
                        })}
                      </tr>
                    ))}
                    <tr>
                      <th scope="col">{strip ? axes.x : `${axes.y} / ${axes.x}`}</th>
                      {map.xs.map((xv) => (
                        <th scope="col" key={heatKey(xv)}>
                          {heatLabel(xv)}
                        </th>
                      ))}
                    </tr>
                  </tbody>
                </table>
              </div>
            </section>
          )}
          <section>
            <h3>Equity curves</h3>
            {overlay.length === 0 ? (
              <p>
                Pick parameter sets in the table to overlay their equity: each set&apos;s ok jobs in time order, as a
                return on the starting balance, compounded (a line ends at the set&apos;s return).
              </p>
            ) : (
              <>
                <svg className="sweep-curves" viewBox="0 0 600 180" data-testid="sweep-curves">
                  <line x1="0" x2="600" y1={chart.zero} y2={chart.zero} className="zero" />
                  {chart.paths.map((d, i) => (
                    <polyline key={i} points={d} fill="none" stroke={overlay[i].color} strokeWidth="1.2" />
                  ))}
                  <text x="4" y="12">
                    {fmt(chart.hi, true)}
                  </text>
                  <text x="4" y="175">
                    {fmt(chart.lo, true)}
                  </text>
                  <text x="596" y={Math.min(175, Math.max(12, chart.zero - 3))} textAnchor="end">
                    0%
                  </text>
                </svg>
                <div className="sweep-curves-axis" data-testid="sweep-curves-axis">
                  <span>{utc(chart.t0)}</span>
                  <span className="legend">
                    {overlay.map((o) => (
                      <span key={o.params} style={{ color: o.color }}>
                        {legend(o.params)}
                      </span>
                    ))}
                  </span>
                  <span>{utc(chart.t1)}</span>
                </div>
              </>
            )}
          </section>
        </>
      )}
    </div>
  );
}
