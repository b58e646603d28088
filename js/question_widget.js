// The lesson's question in the teacher's notebook (anywidget; classroom/question_widget.py):
// how many pupils have answered, live, and after the reveal the class's answers as a bar
// chart beside the right one, readable from the back row. Python sends every word and
// number in the `view` trait (`Question.view`); this draws it.
import "./question_widget.css";

/** The bars' widths in percent of the largest count (no DOM, for vitest). */
export function barWidths(counts) {
  const top = Math.max(1, ...counts);
  return counts.map((c) => Math.round((100 * c) / top));
}

/** @param {any} v the view @param {HTMLElement} el @param {boolean} [showText] */
export function draw(v, el, showText = true) {
  el.replaceChildren();
  const box = document.createElement("div");
  box.className = "mwq";
  box.dataset.state = v.state;
  box.dataset.testid = "question-widget";
  const text = document.createElement("div");
  text.className = "mwq-text";
  text.textContent = v.text;
  const status = document.createElement("div");
  status.className = "mwq-status";
  status.setAttribute("role", "status");
  const count = document.createElement("span");
  count.className = "mwq-count";
  count.dataset.testid = "question-answered";
  count.textContent = v.answered_text;
  const state = document.createElement("span");
  state.className = "mwq-state";
  state.textContent = v.state_text;
  status.append(count, state);
  if (showText) box.append(text);
  box.append(status);
  if (Array.isArray(v.counts)) {
    const chart = document.createElement("div");
    chart.className = "mwq-chart";
    chart.dataset.testid = "question-chart";
    const widths = barWidths(v.counts);
    v.choices.forEach((choice, i) => {
      const row = document.createElement("div");
      row.className = "mwq-row";
      if (v.answer === i) row.dataset.right = "true";
      const label = document.createElement("span");
      label.className = "mwq-label";
      label.textContent = v.answer === i ? `✓ ${choice}` : choice;
      const track = document.createElement("span");
      track.className = "mwq-track";
      const bar = document.createElement("span");
      bar.className = "mwq-bar";
      bar.style.width = `${widths[i]}%`;
      const n = document.createElement("span");
      n.className = "mwq-n";
      n.textContent = v.count_labels?.[i] ?? String(v.counts[i]);
      track.append(bar, n);
      row.append(label, track);
      chart.append(row);
    });
    const answer = document.createElement("div");
    answer.className = "mwq-answer";
    answer.dataset.testid = "question-answer";
    answer.textContent = v.answer_text;
    box.append(chart, answer);
  } else {
    const list = document.createElement("ol");
    list.className = "mwq-choices";
    for (const choice of v.choices) {
      const li = document.createElement("li");
      li.textContent = choice;
      list.append(li);
    }
    box.append(list);
  }
  el.append(box);
}

export default {
  render({ model, el }) {
    const redraw = () => draw(model.get("view"), el, model.get("show_text") !== false);
    redraw();
    model.on("change:view", redraw);
    model.on("change:show_text", redraw);
    return () => {
      model.off("change:view", redraw);
      model.off("change:show_text", redraw);
    };
  },
};
