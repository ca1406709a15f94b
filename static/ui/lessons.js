// The tutorial's pure parts: the board's marks from the server's answer, and the next lesson.

// The chosen piece and its legal destinations (the server's legal moves), the last move.
export function tutorialMarks(state, selected) {
  const targets = new Set(
    selected == null ? [] : state.legal_moves.filter(([src]) => src === selected).map(([, dst]) => dst),
  );
  const last = state.last_move ? { from: state.last_move[0], to: state.last_move[1] } : null;
  const setupArea = new Set(state.remaining ? state.setup_squares : []);
  return { selected, targets, lastMove: last, setupArea };
}

export function lessonAfter(lessons, slug) {
  const index = lessons.findIndex((x) => x.slug === slug);
  return index >= 0 && index + 1 < lessons.length ? lessons[index + 1].slug : null;
}
