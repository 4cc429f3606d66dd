// Who sits at each seat: a person, or the computer at a level (/suggest's `level`; MCTS with a time budget). A
// table's seats are written in the link as one word each: "person", "random", "greedy", "mcts-1000".

export const LEVELS = ["random", "greedy", "mcts"];
export const BUDGETS = [300, 1000, 3000]; // ms of search for MCTS
export const DEFAULT_BUDGET = 1000;

export const person = () => ({kind: "person"});
export const computer = (level = "mcts", budget = DEFAULT_BUDGET) => ({kind: "computer", level, budget});

export function seatCode(seat) {
  if (seat.kind === "person") return "person";
  return seat.level === "mcts" ? "mcts-" + seat.budget : seat.level;
}

// a seat from its word; null for a word that names none
export function seatOf(code) {
  if (code === "person") return person();
  const [level, budget] = code.split("-");
  if (!LEVELS.includes(level)) return null;
  if (level !== "mcts") return computer(level);
  const ms = Number(budget || DEFAULT_BUDGET);
  return Number.isInteger(ms) && ms >= 50 && ms <= 10000 ? computer(level, ms) : null;
}

export const isPerson = (seat) => seat.kind === "person";
