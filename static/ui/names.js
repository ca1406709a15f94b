// Why a nickname is refused, in words (lobby/views.py nickname_problem says the same).
export function nicknameProblem(name) {
  if (!name) return "Choose a nickname first: it is how others see you.";
  if (name.length > 24) return `A nickname has at most 24 characters; this one has ${name.length}.`;
  if (/\s/.test(name)) return `A nickname has no spaces: try ${name.replace(/\s+/g, "_").slice(0, 24)}.`;
  const odd = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ""))].sort().join("");
  return odd ? `A nickname uses only letters A-Z, digits and _ - . (not ${odd}).` : "";
}
