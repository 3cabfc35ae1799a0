package io.conduit.blueprints.tutor;

/** The system prompt for each difficulty; the advanced one asks for the thinking and the answer apart, in tags. */
final class TutorPrompts {

    static final String ADVANCED_KEY = "advanced_reasoning";

    private TutorPrompts() {
    }

    /** The key of the prompt picked for a level, as the state records it. */
    static String key(Difficulty d) {
        return d == Difficulty.ADVANCED ? ADVANCED_KEY : d.wire();
    }

    static String system(Difficulty d, String subject) {
        String role = "You are a patient tutor for a course on " + subject + ". Ground what you say in the course material: "
                + "call rag_search for passages and get_guide for how the course wants topics taught when that helps. "
                + "When the student asks to be tested or quizzed, call generate_test with the topic.\n\n";
        return role + switch (d) {
            case BASIC -> "The question is a basic one. Answer in a few plain sentences: define the terms, give one example, "
                    + "and do not go beyond what was asked.";
            case INTERMEDIATE -> "The question needs an explanation. Explain step by step, connect it to what the course "
                    + "covered before, and end with a short check the student can do.";
            case ADVANCED -> "The question is an advanced one. Reason it through before you answer. Write your reasoning "
                    + "between <thinking> and </thinking>, then the answer for the student between <answer> and </answer>. "
                    + "Only the answer is shown to the student as your reply.";
        };
    }

    static String rate(String question) {
        return "Rate the difficulty of this student's question for a course on the subject as basic, intermediate or advanced. "
                + "Answer with only JSON: {\"level\": \"basic\" | \"intermediate\" | \"advanced\"}.\nQuestion: " + question;
    }

    static String queries(String topic, String subject) {
        return "Write 3 search queries for a quiz on: " + topic + " (course: " + subject + "). They will search the course "
                + "material for what the questions should cover. Answer with only JSON: {\"queries\": [\"...\", \"...\", \"...\"]}.";
    }

    static String questions(int n, String topic, String material) {
        return "Write " + n + " multiple-choice questions on: " + topic + ". Base them on the course material below only. "
                + "Each has 4 choices, exactly one right. Answer with only JSON: {\"questions\": [{\"question\": \"...\", "
                + "\"choices\": [\"...\", \"...\", \"...\", \"...\"], \"answer\": \"A\", \"explanation\": \"why it is right\"}]}.\n\n"
                + "Course material:\n" + material;
    }

    static String judge(QuizQuestion q, String answer, String material) {
        StringBuilder b = new StringBuilder("Judge the student's answer to a quiz question against the course material. ");
        b.append("Answer with only JSON: {\"correct\": true | false, \"feedback\": \"one or two sentences for the student\"}.\n");
        b.append("Question: ").append(q.question()).append('\n');
        for (int i = 0; i < q.choices().size(); i++) {
            b.append(QuizQuestion.letter(i)).append(") ").append(q.choices().get(i)).append('\n');
        }
        b.append("Correct answer: ").append(QuizQuestion.letter(q.answer())).append('\n');
        b.append("Student's answer: ").append(answer).append("\n\nCourse material:\n").append(material);
        return b.toString();
    }
}
