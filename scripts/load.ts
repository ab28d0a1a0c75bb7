// HTTP load for the benchmarks: wrk when it is installed, otherwise a small keep-alive load loop in
// Bun (fewer requests per CPU second than wrk, so on a 2-core machine its figures are a floor).
// Only ever pointed at 127.0.0.1.

export type TLoadResult = { rps: number; p50Ms: number; p99Ms: number; non2xx: number; tool: string };

/** Loads `url` with `connections` concurrent keep-alive clients for `seconds`. */
export async function load(
  url: string,
  options: { headers?: Record<string, string>; seconds?: number; connections?: number } = {},
): Promise<TLoadResult> {
  if (!/^http:\/\/127\.0\.0\.1[:/]/.test(url)) throw new Error(`refusing to load ${url}: 127.0.0.1 only`);
  const seconds = options.seconds ?? 8;
  const connections = options.connections ?? 32;
  const headers = options.headers ?? {};
  const wrk = Bun.which("wrk");
  if (wrk) {
    const run = Bun.spawnSync([
      wrk,
      "-t2",
      `-c${connections}`,
      `-d${seconds}s`,
      "--latency",
      ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
      url,
    ]);
    const out = run.stdout.toString();
    const ms = (text: string | undefined) => {
      const m = /^([\d.]+)(us|ms|s)$/.exec(text ?? "");
      if (!m) return Number.NaN;
      return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
    };
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
      p50Ms: ms(/^\s+50%\s+(\S+)/m.exec(out)?.[1]),
      p99Ms: ms(/^\s+99%\s+(\S+)/m.exec(out)?.[1]),
      non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
      tool: "wrk",
    };
  }
  const latencies: number[] = [];
  let non2xx = 0;
  // A short warm-up, not counted.
  const warmUntil = performance.now() + 500;
  const until = warmUntil + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const res = await fetch(url, { headers, redirect: "manual" });
      await res.arrayBuffer();
      if (started < warmUntil) continue;
      latencies.push(performance.now() - started);
      if (res.status < 200 || res.status >= 400) non2xx += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  return {
    rps: latencies.length / seconds,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    non2xx,
    tool: "bun fetch loop (wrk not installed)",
  };
}

/** One line of a benchmark table: the figure next to its target. */
export function formatLoad(label: string, result: TLoadResult, target?: number, extra = ""): string {
  const verdict = target === undefined ? "" : result.rps >= target ? "  ✓" : "  ✗ below target";
  return `${label.padEnd(28)} ${result.rps.toFixed(0).padStart(6)} req/s${
    target === undefined ? "" : ` (target ≥ ${target.toLocaleString("en-US")})`
  }  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms  non-2xx ${result.non2xx}${extra}${verdict}`;
}

/**
 * Waits until the server has finished its start-up work (page renderer, screening index), so the
 * measurement does not include it: the screening lists answer 200 only once the index is built.
 */
export async function waitUntilWarm(base: string, token: string, timeoutMs = 180_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const res = await fetch(`${base}/api/screenings/lists`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    if (res.status === 200) {
      await (await fetch(`${base}/auth/login`)).arrayBuffer();
      return;
    }
    await Bun.sleep(500);
  }
  throw new Error("the server did not finish starting up");
}
