// A quiz question shows once, as its card. The tutor's graph asks through an interrupt (the card, with choice
// buttons) and, once answered, writes the question as an assistant message ("Question 1 of 3: …" and a line per
// choice) and the answer as a user message, so the model sees the quiz. On the page those two messages would repeat
// the card: they are hidden when the card is there, and drawn as an answered card when it is not (a reloaded chat).

const QUESTION = /^Question (\d+) of (\d+): ([^\n]*)((?:\n[A-Z]\) [^\n]*)*)\s*$/;

/** The quiz question an assistant message repeats, or null: {question_num, total_questions, question_text, choices}. */
export function quizQuestion(text) {
  const m = QUESTION.exec(text || "");
  if (!m) return null;
  const choices = m[4].split("\n").filter(Boolean).map((line) => line.slice(3));
  return { action: "answer_question", question_num: Number(m[1]), total_questions: Number(m[2]), question_text: m[3], choices };
}
