package io.conduit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** What a test's WebSocket client (the JDK's) receives: each whole text message, in order, and the close code. */
public final class WebSocketFrames implements WebSocket.Listener {

    public final LinkedBlockingQueue<String> texts = new LinkedBlockingQueue<>();
    public final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final StringBuilder partial = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            texts.add(partial.toString());
            partial.setLength(0);
        }
        ws.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
        closed.complete(status);
        return null;
    }

    /** The next message as JSON; it must come (within a bound against a hang, not a timing check). */
    public JsonNode next() throws Exception {
        String t = texts.poll(60, TimeUnit.SECONDS);
        assertThat(t).as("a frame").isNotNull();
        return JsonCodec.MAPPER.readTree(t);
    }
}
