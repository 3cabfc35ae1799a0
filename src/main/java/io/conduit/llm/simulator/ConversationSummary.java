package io.conduit.llm.simulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The simulator's answer to a summarization request: {@code Summary: } and the first words of each thing the user
 * said. A request is one when the first line of its first system (or developer) message mentions "summar"; only the
 * first line, because an assistant's ordinary system prompt may quote an earlier summary further down ("Summary of
 * the earlier conversation: ..."), and that must not turn an ordinary turn into a summary.
 */
final class ConversationSummary {

    private static final int WORDS_PER_UTTERANCE = 8;
    private static final String QUOTED_USER = "User:";

    private ConversationSummary() {
    }

    static boolean isRequested(CompletionRequest request) {
        for (CompletionRequest.Message m : request.messages()) {
            if (m.role().equals("system") || m.role().equals("developer")) {
                String firstLine = m.text().strip().lines().findFirst().orElse("");
                return firstLine.toLowerCase(Locale.ROOT).contains("summar");
            }
        }
        return false;
    }

    static String of(CompletionRequest request) {
        List<String> said = new ArrayList<>();
        for (CompletionRequest.Message m : request.messages()) {
            if (m.role().equals("user")) {
                said.addAll(utterances(m.text()));
            }
        }
        List<String> parts = said.stream().map(ConversationSummary::firstWords).filter(s -> !s.isEmpty()).toList();
        return "Summary: " + (parts.isEmpty() ? "nothing was said yet." : String.join("; ", parts) + ".");
    }

    /**
     * What the user said in one message. A summarizer usually receives the conversation as a transcript inside one
     * user message ({@code User: ...}, {@code Assistant: ...} lines); then each {@code User:} line is one utterance.
     */
    private static List<String> utterances(String text) {
        List<String> quoted = text.lines().map(String::strip).filter(l -> l.startsWith(QUOTED_USER))
                .map(l -> l.substring(QUOTED_USER.length())).toList();
        return quoted.isEmpty() ? List.of(text) : quoted;
    }

    private static String firstWords(String text) {
        String[] words = text.strip().split("\\s+");
        String first = String.join(" ", Arrays.copyOf(words, Math.min(WORDS_PER_UTTERANCE, words.length))).strip();
        return first.replaceAll("[.!?,;:]+$", ""); // the parts are joined into one sentence
    }
}
