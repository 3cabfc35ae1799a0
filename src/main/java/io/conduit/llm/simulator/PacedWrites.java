package io.conduit.llm.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A streamed completion's chunks as the SSE writes {@link TokenPacing} paces: the opening chunk (the {@code role}
 * delta, no output of its own) goes out in one write with the first piece of the answer, so the first token waits
 * {@code time-to-first-token}, as from the in-process model, and not that plus an {@code inter-token-delay}. (With
 * them apart, a 60 s pause held the first token back a minute: as long as the client's idle limit, which dropped
 * every attempt before its first token.)
 */
final class PacedWrites {

    private PacedWrites() {
    }

    /** {@code data: <chunk>\n\n} each, the first two in one write; each made when it is written (stamped tokens). */
    static List<Supplier<String>> of(List<Supplier<String>> chunks) {
        List<Supplier<String>> writes = new ArrayList<>(chunks.size());
        if (chunks.size() >= 2) {
            Supplier<String> opening = chunks.get(0);
            Supplier<String> first = chunks.get(1);
            writes.add(() -> frame(opening.get()) + frame(first.get()));
        }
        for (int i = writes.isEmpty() ? 0 : 2; i < chunks.size(); i++) {
            Supplier<String> chunk = chunks.get(i);
            writes.add(() -> frame(chunk.get()));
        }
        return writes;
    }

    private static String frame(String chunk) {
        return "data: " + chunk + "\n\n";
    }
}
