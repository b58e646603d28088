// @ts-check
// Generated from mindwidget/wire.py by tools/build_wire_schema.py: do not edit.

/** The notebook widget's actions that carry the level time t (wire.Message); a class page sends none (its clock.stamp is false). */
export const TIMED = Object.freeze(["ready", "play", "stop", "propose_star", "vote"]);
