import { describe, expect, it } from "vitest";
import { questionLines } from "./question.js";
import { barWidths } from "./question_widget.js";

const q = {
  id: 1,
  text: "Haalt de klas level 3?",
  choices: ["ja", "nee"],
  state: "open",
  held: false,
  mine: null,
};

describe("the lesson's question on a pupil's page", () => {
  it("says the answer may change while open, and waits while cards are in play", () => {
    expect(questionLines(q, "nl").hint).toBe("Je mag je antwoord veranderen tot je docent de vraag sluit.");
    const held = questionLines({ ...q, held: true }, "nl");
    expect(held.waits).toMatch(/vraag/);
    expect(held.hint).toBe("");
  });
  it("after the reveal: the pupil's own choice beside the answer, in their language", () => {
    const revealed = { ...q, state: "revealed", mine: 1, answer: 0, counts: [3, 2] };
    const nl = questionLines(revealed, "nl");
    expect(nl.result).toBe("Jij koos nee");
    expect(nl.answer).toBe("Het antwoord: ja");
    expect(nl.counts).toBe("De klas: ja: 3 · nee: 2");
    expect(questionLines(revealed, "de").result).toBe("Du hast nee gewählt");
    expect(questionLines({ ...revealed, mine: null }, "en").result).toBe("You did not answer");
    expect(questionLines({ ...revealed, answer: null }, "en").answer).toMatch(/opinion/);
  });
});

describe("the question's chart in the notebook", () => {
  it("draws each bar against the largest count", () => {
    expect(barWidths([3, 0, 6])).toEqual([50, 0, 100]);
    expect(barWidths([0, 0])).toEqual([0, 0]);
  });
});
