package io.conduit.stream;

import io.conduit.auth.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.RunStore;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.graphs.ThreadGraphs;
import io.conduit.runs.submission.RunSubmission;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The thread protocol's commands, whatever the transport: each method to its handler, each answer as
 * {@code {type:"success", id, result, meta:{thread_id, applied_through_seq}}} or {@code {type:"error", id, error,
 * message}}. Subscriptions belong to a connection, so they need one ({@code subscriptions} null: over HTTP, where
 * {@code POST /threads/{id}/stream/events} is the subscription).
 */
@ApplicationScoped
public class ThreadCommands {

    private final RunStartCommand runStart;
    private final InputRespondCommand inputRespond;
    private final InputInjectCommand inputInject;
    private final StateGetCommand stateGet;
    private final CheckpointListCommand checkpoints;
    private final StateForkCommand stateFork;
    private final AgentTreeCommand agentTree;
    private final ProtocolEventLogs logs;

    ThreadCommands(RunSubmission submission, RunStore runStore, Assistants assistants, ThreadGraphs graphs, ProtocolEventLogs logs) {
        ProtocolRuns runs = new ProtocolRuns(submission, runStore);
        this.runStart = new RunStartCommand(runs, assistants);
        this.inputRespond = new InputRespondCommand(runs, assistants);
        this.inputInject = new InputInjectCommand(runs);
        this.stateGet = new StateGetCommand(graphs);
        this.checkpoints = new CheckpointListCommand(graphs);
        this.stateFork = new StateForkCommand(runs, graphs);
        this.agentTree = new AgentTreeCommand(runStore, runs, logs);
        this.logs = logs;
    }

    /**
     * Handles one command and gives its answer; null when the answer was written already (a subscribe writes its
     * answer itself, before the events it replays). Never fails: every failure is an error answer. {@code caller} owns a
     * thread a run creates (the transport checked, before, that an existing thread is its own).
     */
    public Uni<ObjectNode> handle(String threadId, ProtocolCommand c, ConnectionSubscriptions subscriptions, Principal caller) {
        Uni<JsonNode> result;
        try {
            result = switch (c.method()) {
                case "run.start" -> runStart.handle(threadId, c.params(), caller);
                case "input.respond" -> inputRespond.handle(threadId, c.params(), caller);
                case "input.inject" -> inputInject.handle(threadId, c.params(), caller);
                case "state.get" -> stateGet.handle(threadId, c.params());
                case "state.listCheckpoints" -> checkpoints.handle(threadId, c.params());
                case "state.fork" -> stateFork.handle(threadId, c.params(), caller);
                case "agent.getTree" -> agentTree.handle(threadId, c.params());
                case "subscription.subscribe" -> subscribe(c, subscriptions);
                case "subscription.unsubscribe" -> unsubscribe(c, subscriptions);
                case "subscription.reconnect" -> Uni.createFrom().failure(new ProtocolException("not_supported",
                        "subscription.reconnect is not supported: subscribe again; the thread's events are replayed with their ids"));
                default -> Uni.createFrom().failure(new ProtocolException("unknown_command", "Unknown protocol command: " + c.method()));
            };
        } catch (RuntimeException e) {
            result = Uni.createFrom().failure(e);
        }
        return result.map(r -> r == null ? null : CommandAnswers.success(c.id(), r, threadId, appliedThrough(threadId)))
                .onFailure().recoverWithItem(f -> {
                    String[] e = ProtocolErrors.of(f);
                    ObjectNode answer = CommandAnswers.error(c.id(), e[0], e[1]);
                    answer.putObject("meta").put("thread_id", threadId).put("applied_through_seq", appliedThrough(threadId));
                    return answer;
                });
    }

    /** Whether a command of {@code method} starts a run. */
    static boolean startsRun(String method) {
        return switch (method) {
            case "run.start", "input.respond", "input.inject", "state.fork" -> true;
            default -> false;
        };
    }

    private static Uni<JsonNode> subscribe(ProtocolCommand c, ConnectionSubscriptions subscriptions) {
        if (subscriptions == null) {
            return Uni.createFrom().failure(new ProtocolException("not_supported",
                    "over HTTP a subscription is a stream: POST /threads/{thread_id}/stream/events with {channels, namespaces?, depth?, since?}"));
        }
        EventFilter filter = EventFilter.parse(c.params(), true);
        Long since = since(c.params());
        subscriptions.subscribe(c.id(), filter, since);
        return Uni.createFrom().nullItem();
    }

    private static Uni<JsonNode> unsubscribe(ProtocolCommand c, ConnectionSubscriptions subscriptions) {
        if (subscriptions == null) {
            return Uni.createFrom().failure(new ProtocolException("not_supported", "over HTTP, close the event stream to unsubscribe"));
        }
        JsonNode id = c.params().get("subscription_id");
        if (id == null || !id.isTextual()) {
            throw ProtocolException.invalid("subscription.unsubscribe requires a subscription_id");
        }
        if (!subscriptions.unsubscribe(id.asText())) {
            throw new ProtocolException("no_such_subscription", "No subscription " + id.asText() + " on this connection");
        }
        return Uni.createFrom().item(JsonCodec.MAPPER.createObjectNode());
    }

    /** {@code since}: replay only events with a greater seq; null: replay everything the log holds. */
    static Long since(JsonNode params) {
        JsonNode s = params.get("since");
        if (s == null || s.isNull()) {
            return null;
        }
        if (s.isIntegralNumber() && s.asLong() >= 0) {
            return s.asLong();
        }
        if (s.isTextual() && s.asText().matches("\\d{1,18}")) {
            return Long.parseLong(s.asText()); // an event_id
        }
        throw ProtocolException.invalid("since must be a seq (a whole number, 0 or more)");
    }

    private long appliedThrough(String threadId) {
        ThreadEventLog log = logs.find(threadId);
        return log == null ? 0 : Math.max(0, log.lastSeq());
    }
}
