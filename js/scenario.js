// The anywidget front end of the ScenarioPlayer's board
// (mindwidget/scenario_widget.py). Python decides every step; this shows the
// synced `scene` and sends the buttons (and Left, Right, Home) as messages;
// no plain key pressed on the board reaches the notebook.
// No timers and no module-level state: render may run several times.
import "./widget.css";
import "./scenario.css";
import { keepKeys, mountFrame, passes } from "./dom.js";
import { LANGS } from "./i18n.js";
import { KEYS, announceScene, keyAction, renderBoard, sceneKey } from "./scenario_render.js";

export default {
  render({ model, el }) {
    const { root, main, live } = mountFrame(el, {
      className: "mindwidget mw-scenario",
      testid: "scenario",
      liveTestid: "scenario-live",
    });
    main.className = "mw-main";
    const releaseKeys = keepKeys(root); // JupyterLab's shortcuts skip the board's keys

    let announced = null; // the sceneKey last seen: speak only when it changes

    const draw = () => {
      const scene = model.get("scene");
      const lang = model.get("lang");
      const focused = root.contains(document.activeElement) ? document.activeElement : null;
      const focusId = focused?.dataset?.testid;
      main.innerHTML = renderBoard(scene, { lang, notice: model.get("notice"), size: model.get("size") });
      root.lang = lang;
      root.classList.toggle("mw-projector", model.get("size") === "projector");
      root.setAttribute("aria-label", scene?.title ?? "");
      if (focused && focused !== root) {
        // Keep the focus on the same button; if it is gone or disabled (Next at
        // the last step, Take over), on the board, so the arrow keys go on working.
        const again = focusId ? main.querySelector(`[data-testid="${focusId}"]`) : null;
        const leave = main.querySelector('[data-testid="btn-leave"]');
        (again && !again.disabled ? again : leave || root).focus({ preventScroll: true });
      }
      const key = sceneKey(scene);
      if (announced !== null && key !== announced) live.textContent = announceScene(scene, lang);
      announced = key;
    };

    const onClick = (ev) => {
      const target = ev.target.closest("[data-action]");
      if (!target || !root.contains(target) || target.disabled) return;
      model.send({ type: target.dataset.action });
    };
    const onChange = (ev) => {
      if (ev.target.dataset?.role === "lang" && LANGS.includes(ev.target.value)) {
        model.set("lang", ev.target.value);
        model.save_changes();
      }
    };
    const onKey = (ev) => {
      if (passes(ev)) return; // JupyterLab's: Shift+Enter, Ctrl+Enter, Escape (see keepKeys)
      // No plain key goes on to the notebook: an arrow would fold a heading
      // there, A, B, M, R, Y change cells. Tab leaves the board.
      if (ev.key !== "Tab") ev.stopPropagation();
      if (ev.shiftKey) return;
      const tag = ev.target.tagName;
      if (tag === "SELECT" || tag === "INPUT") return;
      if (tag === "BUTTON" && (ev.key === " " || ev.key === "Enter")) return; // the button handles it
      if (!Object.hasOwn(KEYS, ev.key)) return;
      // Past either end of the story a key does nothing, gently: no scrolling, no notice.
      ev.preventDefault();
      const action = keyAction(ev.key, model.get("scene"));
      if (action) model.send({ type: action });
    };
    root.addEventListener("click", onClick);
    root.addEventListener("change", onChange);
    root.addEventListener("keydown", onKey);

    const events = ["change:scene", "change:lang", "change:notice", "change:size"];
    for (const e of events) model.on(e, draw);
    draw();

    return () => {
      for (const e of events) model.off(e, draw);
      root.removeEventListener("click", onClick);
      root.removeEventListener("change", onChange);
      root.removeEventListener("keydown", onKey);
      releaseKeys();
      root.remove();
    };
  },
};
