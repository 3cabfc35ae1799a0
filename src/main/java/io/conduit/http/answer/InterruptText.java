package io.conduit.http.answer;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An interrupt's payload as the text of an answer: its question ({@code question}, {@code question_text},
 * {@code message}, or the payload itself when it is a string), then its {@code choices} one per line, lettered as
 * the tutor letters them; a payload with none of these as its JSON.
 */
final class InterruptText {

    private InterruptText() {
    }

    static String of(JsonNode payload) {
        if (payload == null || payload.isNull()) {
            return "";
        }
        if (payload.isTextual()) {
            return payload.asText();
        }
        String question = null;
        for (String field : new String[]{"question", "question_text", "message"}) {
            if (payload.path(field).isTextual()) {
                question = payload.get(field).asText();
                break;
            }
        }
        if (question == null) {
            return payload.toString();
        }
        StringBuilder out = new StringBuilder(question);
        JsonNode choices = payload.path("choices");
        for (int i = 0; i < choices.size(); i++) {
            out.append('\n').append((char) ('A' + i % 26)).append(") ").append(choices.get(i).isTextual() ? choices.get(i).asText() : choices.get(i).toString());
        }
        return out.toString();
    }
}
