package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.ToolBox;
import io.conduit.agent.ToolCall;
import io.conduit.agent.ToolOutcome;
import io.conduit.agent.ToolScope;
import io.conduit.agent.ToolSpec;
import io.conduit.checkpoint.JsonCodec;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs tool calls for the agent. Every call ends in an outcome the model can read, never a failed run: unknown tool,
 * arguments that break the schema (the tool does not run), a failure, a timeout. Retryable failures are tried again
 * with exponential backoff; blocking tools run on worker threads; output is redacted.
 */
public final class ToolExecutor implements ToolBox {

    /** How tries are spaced and how many there are. */
    public record Policy(Duration timeout, int maxAttempts, Duration backoff, Duration maxBackoff) {
    }

    private final ToolRegistry registry;
    private final Policy policy;
    private final Redactor redactor;
    private final ArgumentValidator validator = new ArgumentValidator();

    public ToolExecutor(ToolRegistry registry, Policy policy, Redactor redactor) {
        this.registry = registry;
        this.policy = policy;
        this.redactor = redactor;
    }

    @Override
    public List<ToolSpec> specs() {
        return registry.all().stream().map(t -> new ToolSpec(t.name(), t.description(), visibleSchema(t))).toList();
    }

    @Override
    public Uni<ToolOutcome> call(ToolCall call, ToolScope scope) {
        Tool tool = registry.get(call.name());
        if (tool == null) {
            return error("there is no tool named " + call.name() + "; the tools are "
                    + String.join(", ", registry.all().stream().map(Tool::name).toList()), 0);
        }
        ObjectNode args;
        try {
            JsonNode parsed = JsonCodec.MAPPER.readTree(call.arguments() == null || call.arguments().isBlank() ? "{}" : call.arguments());
            if (!(parsed instanceof ObjectNode o)) {
                return error("the arguments of " + tool.name() + " must be a JSON object", 0);
            }
            args = o;
        } catch (IOException e) {
            return error("the arguments of " + tool.name() + " are not valid JSON", 0);
        }
        for (String name : tool.injected()) {
            Object value = scope.values().get(name);
            if (value == null) {
                args.remove(name);
            } else {
                args.set(name, JsonCodec.MAPPER.valueToTree(value));
            }
        }
        List<String> problems = validator.problems(tool, args);
        if (!problems.isEmpty()) {
            return error("invalid arguments for " + tool.name() + ": " + String.join("; ", problems), 0);
        }
        AtomicInteger attempts = new AtomicInteger();
        Duration timeout = tool.timeout() != null ? tool.timeout() : policy.timeout();
        Uni<String> once = Uni.createFrom().deferred(() -> {
            attempts.incrementAndGet();
            Uni<String> run = Uni.createFrom().deferred(() -> tool.execute(args, scope));
            // blocking tools must never hold an event loop: they run (and are subscribed) on a worker
            return tool.blocking() ? run.runSubscriptionOn(Infrastructure.getDefaultWorkerPool()) : run;
        }).ifNoItem().after(timeout).failWith(() -> new TimeoutException(tool.name() + " did not answer within " + timeout));
        Uni<String> tried = policy.maxAttempts() > 1
                ? once.onFailure(ToolExecutor::retryable).retry().withBackOff(policy.backoff(), policy.maxBackoff()).atMost(policy.maxAttempts() - 1)
                : once;
        return tried
                .map(out -> new ToolOutcome(redactor.apply(out), false, attempts.get()))
                .onFailure().recoverWithItem(e -> new ToolOutcome(redactor.apply(describe(tool, e)), true, attempts.get()));
    }

    private static boolean retryable(Throwable e) {
        return e instanceof RetryableToolException || e instanceof IOException;
    }

    private static String describe(Tool tool, Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getMessage() == null) {
            root = root.getCause();
        }
        String why = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        return e instanceof TimeoutException ? why : tool.name() + " failed: " + why;
    }

    private static Uni<ToolOutcome> error(String message, int attempts) {
        return Uni.createFrom().item(new ToolOutcome(message, true, attempts));
    }

    /** The schema without the injected arguments: the model neither sees nor chooses them. */
    private static String visibleSchema(Tool tool) {
        if (tool.injected().isEmpty()) {
            return tool.parametersSchema();
        }
        try {
            ObjectNode schema = (ObjectNode) JsonCodec.MAPPER.readTree(tool.parametersSchema());
            if (schema.get("properties") instanceof ObjectNode props) {
                tool.injected().forEach(props::remove);
            }
            if (schema.get("required") instanceof com.fasterxml.jackson.databind.node.ArrayNode req) {
                for (int i = req.size() - 1; i >= 0; i--) {
                    if (tool.injected().contains(req.get(i).asText())) {
                        req.remove(i);
                    }
                }
            }
            return schema.toString();
        } catch (IOException e) {
            throw new IllegalStateException("tool " + tool.name() + " has an invalid JSON schema", e);
        }
    }
}
