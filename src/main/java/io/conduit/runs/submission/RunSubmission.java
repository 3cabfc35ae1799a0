package io.conduit.runs.submission;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.auth.Principal;
import io.conduit.graph.GraphException;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.conduit.runs.Assistant;
import io.conduit.runs.InputText;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpec;
import io.conduit.runs.RunSpecJson;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.Runs;
import io.conduit.runs.ThreadGraphMismatchException;
import io.conduit.runs.ThreadRecord;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.UnknownCheckpointException;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.graphs.GraphRegistry;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.graphs.RunRequests;
import io.conduit.runs.worker.RunExecutor;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Creates a run from an Agent Server request body: every field is checked, the assistant and the thread resolved,
 * and the request built once as the engine will run it, all before anything is written; then the record is stored
 * (the store applies {@code reject}), the runs in flight are stopped for {@code interrupt} and {@code rollback}, and
 * the worker is woken. The caller only subscribes to the run's events.
 */
public final class RunSubmission {

    private static final com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>> MAP_TYPE = new com.fasterxml.jackson.core.type.TypeReference<>() {
    };

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(RunSubmission.class);

    /** The thread metadata key that records the assistant of the thread's latest run (LangGraph's). */
    static final String ASSISTANT_ID = "assistant_id";

    private final RunStore runs;
    private final ThreadStore threads;
    private final Assistants assistants;
    private final RunExecutor executor;
    private final ThreadLogs logs;
    private final Clock clock;
    private final RunAdmission admission;
    private final WebhookTargets webhooks;

    public RunSubmission(RunStore runs, ThreadStore threads, Assistants assistants, RunExecutor executor, ThreadLogs logs, Clock clock,
                         RunAdmission admission, WebhookTargets webhooks) {
        this.admission = admission;
        this.webhooks = webhooks;
        this.runs = runs;
        this.threads = threads;
        this.assistants = assistants;
        this.executor = executor;
        this.logs = logs;
        this.clock = clock;
    }

    /** A stored run and how its creator wants to follow it (in the modes of its spec). */
    public record Submitted(Run run, boolean subgraphs, boolean cancelOnDisconnect) {
    }

    /**
     * {@code threadId} null: a stateless run on a temporary thread. {@code caller} owns a thread the run creates; a
     * thread or assistant it does not own is not found; it is the run's {@code config.configurable.user_id}.
     */
    public Uni<Submitted> submit(String threadId, JsonNode body, boolean streaming, Principal caller) {
        return Uni.createFrom().deferred(() -> {
            Executor home = executor.here(); // the request's event loop: the run will start there (see RunExecutor.Placement)
            if (body == null || !body.isObject()) {
                throw new InvalidInputException("body", "must be a JSON object");
            }
            if (threadId != null && !InputText.isId(threadId)) {
                throw new NotFoundException("Thread " + threadId + " not found (thread ids are 1 to 128 letters, digits or - _ . : @)");
            }
            String assistantRef = text(body, "assistant_id", true);
            RunSpec asked = RunSpecJson.fromRequest(body); // the run's own fields, checked once, here
            webhooks.check(asked.others().get("webhook"));
            MultitaskStrategy strategy = choice(body, "multitask_strategy", MultitaskStrategy.ENQUEUE);
            String onDisconnect = oneOf(body, "on_disconnect", "continue", "cancel");
            String ifNotExists = oneOf(body, "if_not_exists", "reject", "create");
            double afterSeconds = number(body, "after_seconds");
            boolean subgraphs = JsonFields.bool(body, "stream_subgraphs", false);
            Map<String, Object> metadata = owned(JsonFields.object(body, "metadata"), caller);
            boolean configurable = asked.config() != null && asked.config().containsKey("configurable");
            if (configurable && asked.context() != null && !asked.context().isNull()) {
                throw new BadRequest("send config.configurable or context, not both");
            }
            if (threadId == null && asked.command() != null && asked.command().hasNonNull("resume")) {
                throw new BadRequest("a stateless run has no interrupt to resume: command.resume needs a thread");
            }
            return assistants.resolve(assistantRef, caller).chain(assistant -> {
                RegisteredGraph graph = assistants.graph(assistant);
                Instant now = clock.instant();
                String runId = TimeOrderedIds.next();
                String thread = threadId != null ? threadId : java.util.UUID.randomUUID().toString();
                RunSpec spec = asked.served(graph.graphId(), config(assistant, graph, asked, caller), threadId == null);
                Run run = new Run(runId, thread, assistant.assistantId(), RunStatus.PENDING, metadata, strategy, spec, now, now,
                        now.plusMillis((long) (afterSeconds * 1000)), null);
                var request = RunRequests.from(run, graph); // throws on bad input: nothing is written yet
                String title = threadId == null ? null : ThreadTitle.of(request.input()); // a stateless run's thread is temporary
                // a fork from a checkpoint the thread does not have could only fail: 404 now, before anything is written
                Uni<Void> forkable = spec.fork().map(fork -> graph.graph().state(thread, fork.checkpointId())
                        .onFailure(f -> f instanceof GraphException g && g.code() == GraphException.Code.UNKNOWN_THREAD)
                        .recoverWithItem(java.util.Optional.empty())
                        .invoke(s -> {
                            if (s.isEmpty()) {
                                throw new UnknownCheckpointException(fork.field(), thread, fork.checkpointId());
                            }
                        }).replaceWithVoid()).orElse(Uni.createFrom().voidItem());
                Map<String, Object> binding = Map.of(GraphRegistry.GRAPH_ID, graph.graphId(), ASSISTANT_ID, assistant.assistantId());
                Uni<ThreadRecord> threadReady = (threadId == null || "create".equals(ifNotExists)
                        ? threads.create(thread, caller.stamp(binding), null, true, now)
                        : threads.get(thread).map(t -> t.orElseThrow(() -> new NotFoundException("Thread " + thread + " not found"))))
                        .invoke(t -> {
                            if (!caller.sees(t.metadata())) {
                                throw new NotFoundException("Thread " + thread + " not found");
                            }
                        })
                        .chain(t -> bind(t, graph, binding, now));
                // the run's log segment opens before its record exists: a later run's interrupt may cancel it as soon as
                // it is stored, and that cancel ends the segment (opened after, it stayed open and its stream never ended)
                return forkable.chain(() -> admission.admit(threadId, strategy, caller)).chain(ticket -> threadReady
                        .invoke(t -> {
                            logs.begin(thread, runId);
                            ticket.segmentOpened();
                        })
                        .chain(t -> runs.create(run).onFailure().invoke(f -> logs.abandon(thread, runId))
                                .call(created -> titled(t, title, now)))
                        .invoke(ticket::stored)
                        .chain(created -> stopOthers(created).invoke(() -> executor.created(created.runId(), home))
                                .replaceWith(new Submitted(created, subgraphs, "cancel".equals(onDisconnect))))
                        .onTermination().invoke(ticket::release));
            });
        });
    }

    /**
     * A run's metadata names the principal that asked for it ({@code owner}, as its thread's does): what its limits
     * count (runs in flight, tokens). A client cannot name another; in auth mode none a run has no owner.
     */
    private static Map<String, Object> owned(Map<String, Object> metadata, Principal caller) {
        if (!caller.anonymous()) {
            return caller.stamp(metadata);
        }
        if (metadata == null || !metadata.containsKey(Principal.OWNER)) {
            return metadata;
        }
        Map<String, Object> m = new java.util.HashMap<>(metadata);
        m.remove(Principal.OWNER);
        return m;
    }

    /** Fails with NotFoundException when the thread exists and belongs to another principal than {@code caller}. */
    public Uni<Void> visible(String threadId, Principal caller) {
        if (threadId == null || !caller.restricted()) {
            return Uni.createFrom().voidItem();
        }
        return threads.get(threadId).invoke(t -> {
            if (t.isPresent() && !caller.sees(t.get().metadata())) {
                throw new NotFoundException("Thread " + threadId + " not found");
            }
        }).replaceWithVoid();
    }

    /**
     * Records the run's graph and assistant in the thread's metadata (as LangGraph does), so the thread's state is read
     * with its graph's schema outside a run. A thread whose recorded graph is another served graph is refused: its
     * checkpoints hold that graph's channels. (LangGraph overwrites the record and lets the new graph read what it
     * can; a typed schema here would misread it.) Of simultaneous first runs of different graphs, the one whose binding
     * is written first wins; the others are refused as if it had been there before them.
     */
    private Uni<ThreadRecord> bind(ThreadRecord t, RegisteredGraph graph, Map<String, Object> binding, Instant now) {
        String recorded = GraphRegistry.recordedGraphId(t);
        if (recorded != null && !recorded.equals(graph.graphId()) && assistants.graphs().byGraphId(recorded) != null) {
            return Uni.createFrom().failure(new ThreadGraphMismatchException(t.threadId(), recorded, graph.graphId()));
        }
        if (graph.graphId().equals(recorded) && binding.get(ASSISTANT_ID).equals(t.metadata().get(ASSISTANT_ID))) {
            return Uni.createFrom().item(t);
        }
        // a compare-and-set: of simultaneous first runs of different graphs one binds the thread; the others see its graph
        return threads.patchMetadataIf(t.threadId(), GraphRegistry.GRAPH_ID, recorded, binding, now).chain(p -> {
            if (p.isEmpty() || graph.graphId().equals(GraphRegistry.recordedGraphId(p.get()))) {
                return Uni.createFrom().item(p.orElse(t));
            }
            return bind(p.get(), graph, binding, now);
        });
    }

    /**
     * Gives an untitled thread the title of the run's first human message, as it is stored: a client's own title, set
     * before or meanwhile, is kept (a compare-and-set on the title being unset). The run is stored by then, so a
     * title that cannot be written is passed over rather than failing it.
     */
    private Uni<Void> titled(ThreadRecord t, String title, Instant now) {
        if (title == null || !ThreadTitle.missing(t.metadata())) {
            return Uni.createFrom().voidItem();
        }
        return threads.patchMetadataIf(t.threadId(), ThreadTitle.KEY, null, Map.of(ThreadTitle.KEY, title), now)
                .onFailure().invoke(f -> LOG.debugf(f, "Thread %s: no title written", t.threadId()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** The run's {@code config}: the assistant's {@code configurable}, overridden by the run's own, checked. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> config(Assistant assistant, RegisteredGraph graph, RunSpec asked, Principal caller) {
        Map<String, Object> config = new java.util.HashMap<>(asked.config() == null ? Map.of() : asked.config());
        Map<String, Object> configurable = new java.util.HashMap<>();
        if (assistant.config().get("configurable") instanceof Map<?, ?> a) {
            configurable.putAll((Map<String, Object>) a);
        }
        if (config.get("configurable") instanceof Map<?, ?> r) {
            configurable.putAll((Map<String, Object>) r);
        } else if (config.containsKey("configurable") && config.get("configurable") != null) {
            throw new InvalidInputException("config.configurable", "must be an object");
        }
        if (asked.context() != null && asked.context().isObject()) {
            configurable.putAll(JsonCodec.MAPPER.convertValue(asked.context(), MAP_TYPE));
        }
        if (!caller.anonymous()) {
            configurable.put("user_id", caller.id()); // the server names the user: a client cannot name another
        }
        String problem = graph.configPolicy().problem(configurable);
        if (problem != null) {
            throw new InvalidInputException("config.configurable." + problem.split(" ")[0], problem);
        }
        config.put("configurable", configurable);
        return config;
    }

    /**
     * {@code interrupt} and {@code rollback}: the thread's other runs in flight stop (they were there first). Of
     * simultaneous requests the last one wins, as it would in sequence. Each request writes its run and then reads
     * the thread's, so of two racing requests at least one sees the other: either the newer stops the older, or the
     * older finds it was superseded and stops itself.
     */
    private Uni<Void> stopOthers(Run created) {
        if (!stopsOthers(created)) {
            return Uni.createFrom().voidItem();
        }
        return runs.inflight(created.threadId()).chain(inflight -> {
            List<Uni<Boolean>> stops = new ArrayList<>();
            for (Run r : inflight) {
                if (Runs.OLDEST_FIRST.compare(r, created) < 0) {
                    stops.add(executor.cancel(r, stopReason(created), created.runId()));
                }
            }
            inflight.stream().filter(r -> Runs.OLDEST_FIRST.compare(created, r) < 0 && stopsOthers(r)).findFirst()
                    .ifPresent(newer -> stops.add(executor.cancel(created, stopReason(newer), newer.runId())));
            return stops.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(stops).andFailFast().replaceWithVoid();
        });
    }

    private static boolean stopsOthers(Run r) {
        return r.multitaskStrategy() == MultitaskStrategy.INTERRUPT || r.multitaskStrategy() == MultitaskStrategy.ROLLBACK;
    }

    private static RunExecutor.StopReason stopReason(Run newer) {
        return newer.multitaskStrategy() == MultitaskStrategy.ROLLBACK ? RunExecutor.StopReason.ROLLBACK : RunExecutor.StopReason.INTERRUPT;
    }

    private static String text(JsonNode body, String field, boolean required) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            if (required) {
                throw new InvalidInputException(field, "is required");
            }
            return null;
        }
        if (!n.isTextual()) {
            throw new InvalidInputException(field, "must be a string");
        }
        return n.asText();
    }

    private static String oneOf(JsonNode body, String field, String dflt, String... others) {
        String v = text(body, field, false);
        if (v == null || v.equals(dflt)) {
            return dflt;
        }
        for (String o : others) {
            if (o.equals(v)) {
                return v;
            }
        }
        throw new InvalidInputException(field, "must be one of " + dflt + ", " + String.join(", ", others));
    }

    private static MultitaskStrategy choice(JsonNode body, String field, MultitaskStrategy dflt) {
        String v = text(body, field, false);
        if (v == null) {
            return dflt;
        }
        try {
            return MultitaskStrategy.of(v);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(field, "must be one of reject, enqueue, interrupt, rollback");
        }
    }

    private static double number(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return 0;
        }
        if (!n.isNumber() || n.asDouble() < 0) {
            throw new InvalidInputException(field, "must be a number of seconds, 0 or more");
        }
        return n.asDouble();
    }

    /** A request that cannot be served as asked (400). */
    public static class BadRequest extends RuntimeException {
        public BadRequest(String message) {
            super(message);
        }
    }
}
