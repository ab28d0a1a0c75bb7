// npm test: lint, typecheck, unit + API tests (bun test), then the browser tests against a real server.
import path from "node:path";
import { ROOT } from "./lib";

const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

type TStep = { name: string; cmd: string[]; count?: (output: string) => { passed: number; failed: number } };

const steps: TStep[] = [
  { name: "Lint and format (Biome)", cmd: [bin("biome"), "check", "."] },
  { name: "Typecheck (tsc)", cmd: [bin("tsc"), "--noEmit", "-p", "."] },
  // Tests that start the real server need the client build; it is rebuilt only when stale.
  {
    name: "Client build (Vite)",
    cmd: [process.execPath, "-e", 'await (await import("./scripts/lib.ts")).ensureClientBuild()'],
  },
  {
    name: "Unit and API tests (bun test)",
    cmd: [process.execPath, "test", "--timeout", "30000"],
    count: (out) => ({
      passed: lastNumber(out, /^\s*(\d+) pass$/gm),
      failed: lastNumber(out, /^\s*(\d+) fail$/gm),
    }),
  },
  {
    name: "Browser tests (Playwright)",
    cmd: [process.execPath, path.join(ROOT, "scripts", "e2e.ts")],
    count: (out) => ({
      passed: lastNumber(out, /^\s*(\d+) passed/gm),
      failed: lastNumber(out, /^\s*(\d+) failed/gm),
    }),
  },
];

let passed = 0;
let failed = 0;
let exitCode = 0;
for (const step of steps) {
  console.log(`\n▶ ${step.name}`);
  const proc = Bun.spawn(step.cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe", env: process.env });
  const [out, err] = await Promise.all([
    relay(proc.stdout, process.stdout),
    relay(proc.stderr, process.stderr),
  ]);
  const code = await proc.exited;
  if (step.count) {
    const counts = step.count(`${out}\n${err}`);
    passed += counts.passed;
    failed += counts.failed;
  }
  if (code !== 0) {
    console.error(`✖ ${step.name} failed (exit ${code})`);
    exitCode = code || 1;
    if (!step.count) failed += 1;
    break;
  }
}
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(exitCode);

async function relay(stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    sink.write(chunk);
    text += decoder.decode(chunk, { stream: true });
  }
  return text;
}

function lastNumber(text: string, pattern: RegExp): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes from runner output
  const plain = text.replace(/\x1b\[[0-9;]*m/g, "");
  const matches = [...plain.matchAll(pattern)];
  return matches.length ? Number(matches[matches.length - 1][1]) : 0;
}
