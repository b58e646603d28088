// The front-end bundles (`npm run build`): esbuild, one minified ES module each.
// `npm run dev` (`--watch`): the same bundles with inline source maps, rebuilt on
// every change under js/ (with ANYWIDGET_HMR=1 a running widget picks them up:
// CONTRIBUTING.md). Run `npm run build` before the tests (the size test).
//
// Each language's strings live in one place, mindwidget/locales/*.json, which
// Python reads too. A bundle carries only the strings its front end can show:
// the keys with the prefixes below are said by Python alone (its plots,
// mindwidget/plots.py; a game in words, mindwidget/describe.py: game_*, ev_*,
// reward_word_*; the refusals, refused_*, are the widget's notices
// too, so they stay) or by the scenario
// view alone, so they are left out (the widget's bundle must stay <= 60 kB,
// tests/table/test_widget.py).
import { readFile } from "node:fs/promises";
import * as esbuild from "esbuild";

const PYTHON_ONLY = ["plot_", "timing_", "game_", "ev_", "reward_word_"];
// The scenario board's own refusals (ScenarioPlayer: refused_<key>, the one family):
// only the scenario view says them.
const SCENARIO_ONLY = ["scenario_", "refused_at_end", "refused_at_start", "refused_live", "refused_not_live"];
// The class table's own words (its notices, `Session.tell` in mindwidget/classroom, and a
// lost connection's pupil back, `view.back`):
// only a pupil's page of the class server says them.
const CLASS_ONLY = ["refused_moved", "refused_resumed", "phase_stopped_back"];

// Words a notebook's game never shows: a class page's lost connection (view.offline,
// js/classmodel.js) and the teacher watching a class table (view.watch "class", the dashboard).
const CLASS_PAGES_ONLY = ["phase_offline", "phase_play_class", "phase_ready_class"];

/** An esbuild plugin that drops the locale keys starting with one of `prefixes`. */
const locales = (/** @type {string[]} */ prefixes) => ({
  name: "locales",
  setup(/** @type {import("esbuild").PluginBuild} */ build) {
    build.onLoad({ filter: /locales[\\/]\w+\.json$/ }, async (args) => {
      const all = JSON.parse(await readFile(args.path, "utf8"));
      const kept = Object.entries(all).filter(([key]) => !prefixes.some((p) => key.startsWith(p)));
      return { contents: JSON.stringify(Object.fromEntries(kept)), loader: "json" };
    });
  },
});

const bundles = [
  ["widget", [...PYTHON_ONLY, ...SCENARIO_ONLY, ...CLASS_ONLY, ...CLASS_PAGES_ONLY]],
  ["scenario", [...PYTHON_ONLY, ...CLASS_ONLY]],
  ["dashboard", [...PYTHON_ONLY, ...SCENARIO_ONLY, ...CLASS_ONLY]],
  // the class server's pupil page (mindwidget/classroom): the widget over a WebSocket
  ["class", [...PYTHON_ONLY, ...SCENARIO_ONLY]],
  // the teacher's page of `mindwidget class` (/teacher): the dashboard over a WebSocket
  ["teacher", [...PYTHON_ONLY, ...SCENARIO_ONLY, ...CLASS_ONLY]],
  // the lesson's question in the teacher's notebook (mindwidget/classroom/question_widget.py)
  ["question_widget", []],
];
const watch = process.argv.includes("--watch");
for (const [name, prefixes] of bundles) {
  /** @type {import("esbuild").BuildOptions} */
  const options = {
    entryPoints: [`js/${name}.js`],
    outfile: `mindwidget/static/${name}.js`,
    bundle: true,
    minify: true,
    format: "esm",
    plugins: [locales(/** @type {string[]} */ (prefixes))],
    logLevel: "info",
  };
  if (watch) {
    const context = await esbuild.context({ ...options, sourcemap: "inline" });
    await context.watch();
  } else {
    await esbuild.build(options);
  }
}
