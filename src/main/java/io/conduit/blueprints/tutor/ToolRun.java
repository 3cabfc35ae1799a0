package io.conduit.blueprints.tutor;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.graph.NodeContext;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * One call of a tutor tool inside a node, announced as a {@code tool} child run (as the agent's tool stage does): a
 * rag_search without {@code top_k} asks for the configured number; its passages are parsed for the {@code context}
 * channel, and what the model reads is the passages with their sources. A retrieval service that does not answer in
 * time becomes the tool message {@value #TIMED_OUT}: the run goes on.
 */
final class ToolRun {

    static final String TIMED_OUT = "retrieval timed out";
    private static final String KIND = "tool";

    /** The tool message for the model and the passages found. */
    record Done(ToolMessage message, List<Passage> passages) {
    }

    private ToolRun() {
    }

    static Uni<Done> call(ToolBox box, ToolCall call, ToolScope scope, NodeContext ctx, int topK) {
        ToolCall sent = withTopK(call, topK);
        return Uni.createFrom().deferred(() -> {
            String childId = TimeOrderedIds.next();
            ctx.childStarted(childId, KIND, call.name(), arguments(sent), call.id());
            return box.call(sent, scope).map(o -> {
                Done done = done(sent, o);
                ctx.childEnded(childId, KIND, call.name(), done.message().content(), done.message().error() ? done.message().content() : null);
                return done;
            });
        });
    }

    private static Done done(ToolCall call, ToolOutcome o) {
        boolean rag = TutorTools.RAG_SEARCH.equals(call.name());
        if (o.error()) {
            String content = rag && o.timedOut() ? TIMED_OUT : o.content();
            return new Done(new ToolMessage(TimeOrderedIds.next(), call.id(), call.name(), content, true), List.of());
        }
        String body = withoutStatusLine(o.content());
        if (!rag) {
            return new Done(new ToolMessage(TimeOrderedIds.next(), call.id(), call.name(), body, false), List.of());
        }
        List<Passage> found = Passages.parse(body, query(call));
        return new Done(new ToolMessage(TimeOrderedIds.next(), call.id(), call.name(), Passages.render(found), false), found);
    }

    /** An HTTP tool's answer starts {@code HTTP 200}: the model needs the body only. */
    private static String withoutStatusLine(String content) {
        return content.startsWith("HTTP ") && content.indexOf('\n') > 0 ? content.substring(content.indexOf('\n') + 1) : content;
    }

    private static ToolCall withTopK(ToolCall call, int topK) {
        if (!TutorTools.RAG_SEARCH.equals(call.name())) {
            return call;
        }
        try {
            if (JsonCodec.MAPPER.readTree(call.arguments() == null || call.arguments().isBlank() ? "{}" : call.arguments()) instanceof ObjectNode args
                    && !args.has("top_k")) {
                args.put("top_k", topK);
                return new ToolCall(call.id(), call.name(), args.toString());
            }
        } catch (Exception notJson) {
            // the executor tells the model
        }
        return call;
    }

    private static String query(ToolCall call) {
        try {
            return JsonCodec.MAPPER.readTree(call.arguments()).path("query").asText(null);
        } catch (Exception notJson) {
            return null;
        }
    }

    private static Object arguments(ToolCall call) {
        try {
            return JsonCodec.MAPPER.readValue(call.arguments(), Object.class);
        } catch (Exception notJson) {
            return call.arguments();
        }
    }

}
