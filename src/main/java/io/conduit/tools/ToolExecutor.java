package io.conduit.tools;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.agent.port.ToolSpec;
import io.conduit.kernel.JsonCodec;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The agent's {@link ToolBox}: runs tool calls. Every call ends in an outcome the model can read, never a failed
 * {@code Uni}: an unknown tool, arguments that break the schema (the tool does not run), a failure, a timeout. Each
 * attempt has a timeout; retryable failures are tried again with exponential backoff (on Mutiny's timers, no thread
 * waits); blocking tools run on worker threads; at most {@code conduit.tools.max-concurrent} calls run at once; what
 * comes back, results and errors alike, is redacted and cut to size.
 */
@ApplicationScoped
public class ToolExecutor implements ToolBox {

    private static final Logger LOG = Logger.getLogger(ToolExecutor.class);

    /** How calls are run: per-attempt timeout, tries (the first included), backoff, concurrency, output size. */
    public record Policy(Duration timeout, int maxAttempts, Duration backoff, Duration maxBackoff, int maxConcurrent,
                         int maxOutputChars) {

        public static Policy of(ToolsConfig config) {
            return new Policy(config.timeout(), config.maxAttempts(), config.retryBackoff(), config.retryMaxBackoff(),
                    config.maxConcurrent(), config.maxOutputChars());
        }
    }

    private final ToolRegistry registry;
    private final Policy policy;
    private final Redactor redactor;
    private final CallLimit limit;
    private final List<ToolSpec> specs;

    /** The service's executor: the configured policy; secrets are the configured patterns, the tools' secrets and the LLM key. */
    @Inject
    public ToolExecutor(ToolRegistry registry, ToolsConfig config,
                        @ConfigProperty(name = "conduit.llm.api-key") Optional<String> llmApiKey) {
        this(registry, Policy.of(config), new Redactor(config.redact().orElse(List.of()), secrets(registry, llmApiKey)));
    }

    public ToolExecutor(ToolRegistry registry, Policy policy, Redactor redactor) {
        if (policy.maxAttempts() < 1) {
            throw new IllegalArgumentException("conduit.tools.max-attempts must be at least 1");
        }
        this.registry = registry;
        this.policy = policy;
        this.redactor = redactor;
        this.limit = new CallLimit(policy.maxConcurrent());
        // the registry does not change once built: the model's view of it is made once
        this.specs = registry.all().stream().map(e -> new ToolSpec(e.tool().name(), e.tool().description(), e.schema().forModel())).toList();
    }

    @Override
    public List<ToolSpec> specs() {
        return specs;
    }

    @Override
    public Uni<ToolOutcome> call(ToolCall call, ToolScope scope) {
        return Uni.createFrom().deferred(() -> checkedCall(call, scope))
                .onFailure().recoverWithItem(e -> {
                    // a fault of ours, not the tool's (those are handled below): still an outcome, never a failed run
                    LOG.errorf(e, "tool call %s (%s) failed unexpectedly", call.id(), call.name());
                    return new ToolOutcome(redactor.apply(call.name() + " could not be run: internal error"), true, 0);
                });
    }

    private Uni<ToolOutcome> checkedCall(ToolCall call, ToolScope scope) {
        ToolRegistry.Entry entry = registry.get(call.name());
        if (entry == null) {
            return error("there is no tool named " + call.name() + "; the tools are "
                    + String.join(", ", registry.all().stream().map(e -> e.tool().name()).toList()));
        }
        Tool tool = entry.tool();
        ObjectNode args;
        try {
            String text = call.arguments() == null || call.arguments().isBlank() ? "{}" : call.arguments();
            if (!(JsonCodec.MAPPER.readTree(text) instanceof ObjectNode object)) {
                return error("the arguments of " + tool.name() + " must be a JSON object");
            }
            args = object;
        } catch (IOException e) {
            return error("the arguments of " + tool.name() + " are not valid JSON");
        }
        for (String name : tool.injected()) {
            Object value = injectedValue(name, scope);
            if (value != null) {
                args.set(name, JsonCodec.MAPPER.valueToTree(value)); // whatever the model sent is overwritten
            } else if (entry.schema().requires(name)) {
                return error(tool.name() + " cannot run here: it needs " + name + " from the conversation, which has none");
            } else {
                args.remove(name);
            }
        }
        List<String> problems = entry.schema().problems(args);
        if (!problems.isEmpty()) {
            return error("invalid arguments for " + tool.name() + ": " + String.join("; ", problems));
        }
        return limit.run(() -> run(tool, args, scope));
    }

    private Uni<ToolOutcome> run(Tool tool, ObjectNode args, ToolScope scope) {
        AtomicInteger attempts = new AtomicInteger();
        Duration timeout = scope.timeout() != null ? scope.timeout() : tool.timeout() != null ? tool.timeout() : policy.timeout();
        Uni<String> attempt = Uni.createFrom().deferred(() -> {
            attempts.incrementAndGet();
            Uni<String> execution = Uni.createFrom().deferred(() -> tool.execute(args.deepCopy(), scope));
            // a blocking tool must never hold an event loop: it is subscribed to, so it runs, on a worker thread
            return tool.blocking() ? execution.runSubscriptionOn(Infrastructure.getDefaultWorkerPool()) : execution;
        }).ifNoItem().after(timeout).failWith(() -> new TimeoutException(tool.name() + " did not answer within " + human(timeout)));
        Uni<String> tried = policy.maxAttempts() == 1 ? attempt
                : attempt.onFailure(ToolExecutor::retryable).retry()
                        .withBackOff(policy.backoff(), policy.maxBackoff()).atMost(policy.maxAttempts() - 1L);
        return tried
                .map(out -> new ToolOutcome(shown(out), false, attempts.get()))
                .onFailure().recoverWithItem(e -> {
                    String message = shown(describe(tool, e, attempts.get()));
                    // the redacted message only: the raw exception may carry the very secrets redaction hides
                    LOG.debugf("tool call failed: %s", message);
                    return new ToolOutcome(message, true, attempts.get(), timedOut(e));
                });
    }

    /** user_id and thread_id are the run's own; anything else comes from the scope's values. */
    private static Object injectedValue(String name, ToolScope scope) {
        return switch (name) {
            case "user_id" -> scope.userId();
            case "thread_id" -> scope.threadId();
            default -> scope.values() == null ? null : scope.values().get(name);
        };
    }

    /**
     * Worth another try: our retryable exception, or an I/O failure (connection refused or reset, an HTTP timeout),
     * found anywhere in the cause chain since async clients wrap them. Not a JSON parsing failure, which is an
     * IOException to Jackson but will fail the same way every time.
     */
    static boolean retryable(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof RetryableToolException) {
                return true;
            }
            if (e instanceof IOException && !(e instanceof JacksonException)) {
                return true;
            }
        }
        return false;
    }

    /** The attempt's timeout, or the HTTP client's, anywhere in the cause chain. */
    static boolean timedOut(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof TimeoutException || e instanceof HttpTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** A short message for the model: what failed and why, and after how many tries. */
    private static String describe(Tool tool, Throwable failure, int attempts) {
        if (failure instanceof TimeoutException) {
            return failure.getMessage() + (attempts > 1 ? " (" + attempts + " attempts)" : "");
        }
        return tool.name() + " failed" + (attempts > 1 ? " after " + attempts + " attempts" : "") + ": " + reason(failure);
    }

    private static String reason(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof ConnectException) {
                return "could not connect";
            }
            if (e instanceof HttpTimeoutException) {
                return "the request timed out";
            }
        }
        Throwable e = failure;
        // async wrappers (CompletionException, ExecutionException) carry the cause's text or none: use the cause's
        while (e.getCause() != null && (e.getMessage() == null || e.getMessage().equals(e.getCause().toString()))) {
            e = e.getCause();
        }
        return e.getMessage() != null && !e.getMessage().isBlank() ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** Redacted first, then cut: a cut can then only split the mask, never a secret. */
    private String shown(String text) {
        String out = redactor.apply(text);
        return out.length() <= policy.maxOutputChars() ? out : out.substring(0, policy.maxOutputChars()) + "\n[truncated]";
    }

    private Uni<ToolOutcome> error(String message) {
        return Uni.createFrom().item(new ToolOutcome(shown(message), true, 0));
    }

    private static String human(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    private static List<String> secrets(ToolRegistry registry, Optional<String> llmApiKey) {
        List<String> secrets = new ArrayList<>(registry.secrets());
        llmApiKey.map(String::strip).filter(k -> !k.isEmpty()).ifPresent(secrets::add);
        return secrets;
    }
}
