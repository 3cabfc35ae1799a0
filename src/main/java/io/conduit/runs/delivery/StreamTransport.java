package io.conduit.runs.delivery;

/**
 * The ways a client streams from this replica, each counted apart among the open streams ({@link StreamPermits#open(StreamTransport)})
 * and shown as the {@code transport} label of {@code conduit_streams_open}.
 */
public enum StreamTransport {

    /** The Agent Server API's SSE: a run's stream, a joined run, a thread's stream. */
    CLASSIC_SSE("classic_sse"),
    /** The thread protocol's event stream over SSE. */
    PROTOCOL_SSE("protocol_sse"),
    /** The thread protocol's WebSocket (the SDK's and the chat page's). */
    PROTOCOL_WS("protocol_ws"),
    /** AG-UI over SSE. */
    AGUI_SSE("agui_sse"),
    /** AG-UI over a WebSocket. */
    AGUI_WS("agui_ws"),
    /** The AI SDK's UI message stream (SSE). */
    AISDK_SSE("aisdk_sse"),
    /** OpenAI's chat completions, streamed (SSE). */
    CHAT_COMPLETIONS_SSE("chat_completions_sse"),
    /** A2A's {@code message/stream} (SSE). */
    A2A_SSE("a2a_sse"),
    /** A wait for a run's end with nothing streamed but keep-alives: {@code runs/wait} and {@code join}. */
    RUN_WAIT("run_wait");

    private final String label;

    StreamTransport(String label) {
        this.label = label;
    }

    /** The label value, as Prometheus shows it. */
    public String label() {
        return label;
    }
}
