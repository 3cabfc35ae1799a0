package io.conduit.http;

import io.conduit.auth.AuthConfig;
import io.conduit.auth.AuthMode;
import io.conduit.auth.Authenticator;
import io.conduit.auth.Principal;
import io.conduit.runs.AssistantStore;
import io.conduit.runs.InputText;
import io.conduit.runs.ThreadStore;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one check every door goes through, before any route (REST resources, the Vert.x routes of every front door,
 * WebSocket upgrades): it authenticates the caller ({@link Authenticator}), leaves the principal where every door reads
 * it ({@link Callers}), and answers 401 when there is no valid credential. It also keeps callers out of what they do not
 * own where the path names it: a thread ({@code /threads/{id}/...}, its runs, files, state and streams included) or a
 * stored assistant ({@code /assistants/{id}/...}) of another principal is 404, as if it did not exist (LangGraph's
 * custom auth does the same: existence is not leaked). What a body names (a run's thread, a search) each door
 * narrows with the principal itself.
 */
@ApplicationScoped
public class AccessGuard {

    /** Before HttpGuards (1000): an unauthenticated request is refused before its body is read. */
    private static final int PRIORITY = 1_100;

    private static final Pattern THREAD = Pattern.compile("/threads/([^/]+)(/.*)?");
    private static final Pattern ASSISTANT = Pattern.compile("/assistants/([^/]+)(/.*)?");

    private final Authenticator auth;
    private final ThreadStore threads;
    private final AssistantStore assistants;
    private final boolean metricsOpen;

    AccessGuard(Authenticator auth, AuthConfig config, ThreadStore threads, AssistantStore assistants) {
        this.auth = auth;
        this.threads = threads;
        this.assistants = assistants;
        this.metricsOpen = config.metricsOpen();
    }

    void register(@Observes Filters filters) {
        filters.register(this::check, PRIORITY);
    }

    private void check(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        request.headers().remove(Callers.HEADER); // only this guard names the principal
        String path = ctx.normalizedPath();
        if (auth.mode() == AuthMode.NONE) {
            Callers.put(ctx, Principal.ANONYMOUS);
            ctx.next();
            return;
        }
        if (open(path, request.method())) {
            ctx.next();
            return;
        }
        boolean upgrade = "websocket".equalsIgnoreCase(request.getHeader(HttpHeaders.UPGRADE));
        String ticket = upgrade ? request.getParam("ticket") : null;
        boolean paused = !request.isEnded();
        if (paused) {
            request.pause(); // the body waits for the route, whatever the check takes
        }
        Context here = Vertx.currentContext(); // the route goes on where the request came in
        auth.authenticate(request.getHeader("x-api-key"), bearer(request.getHeader(HttpHeaders.AUTHORIZATION)), ticket)
                .chain(p -> p.isEmpty() ? Uni.createFrom().item(Outcome.UNAUTHENTICATED) : gate(path, p.get()).invoke(o -> {
                    if (o == Outcome.PASS) {
                        Callers.put(ctx, p.get());
                    }
                }))
                .subscribe().with(outcome -> on(here, () -> {
                    if (paused && !request.isEnded()) {
                        request.resume();
                    }
                    switch (outcome) {
                        case PASS -> ctx.next();
                        case UNAUTHENTICATED -> refuse(ctx, 401, "unauthenticated", "this endpoint needs credentials: an API key in "
                                + "x-api-key or Authorization: Bearer, or a bearer token (docs/auth.md)");
                        case NOT_FOUND -> refuse(ctx, 404, "not_found", notFound(path));
                        case FORBIDDEN -> refuse(ctx, 403, "forbidden", "this endpoint is for admins");
                    }
                }), failure -> on(here, () -> {
                    if (paused && !request.isEnded()) {
                        request.resume();
                    }
                    RouteErrors.error(ctx, failure);
                }));
    }

    private static void on(Context context, Runnable action) {
        if (context == null || Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(x -> action.run());
        }
    }

    private enum Outcome { PASS, UNAUTHENTICATED, NOT_FOUND, FORBIDDEN }

    /**
     * Open without credentials: CORS preflights, the health checks, the metrics unless closed, the chat page itself
     * (its API calls need a key), the Agent Server's meta endpoints and API description, the simulator.
     */
    private boolean open(String path, HttpMethod method) {
        if (method == HttpMethod.OPTIONS) {
            return true; // a browser's CORS preflight carries no credentials, by design; it reads nothing
        }
        if (path.equals("/q/health") || path.startsWith("/q/health/")) {
            return true;
        }
        if (path.equals("/q/metrics") || path.startsWith("/q/metrics/")) {
            return metricsOpen;
        }
        if (method == HttpMethod.GET || method == HttpMethod.HEAD) {
            return path.equals("/") || path.startsWith("/chat/") || path.equals("/favicon.ico")
                    || path.equals("/info") || path.equals("/ok") || path.equals("/openapi.json") || path.equals("/docs");
        }
        // the scripted model's OpenAI endpoint (off in prod unless asked for): called by this service's own LLM client
        return path.startsWith("/simulator/");
    }

    /** Whether the caller may go on to the route: the thread or assistant the path names is its own, or unknown. */
    private Uni<Outcome> gate(String path, Principal p) {
        if (path.startsWith("/admin/") && !p.admin()) {
            return Uni.createFrom().item(Outcome.FORBIDDEN);
        }
        return owns(path, p).map(ok -> ok ? Outcome.PASS : Outcome.NOT_FOUND);
    }

    private Uni<Boolean> owns(String path, Principal p) {
        if (!p.restricted()) {
            return Uni.createFrom().item(true);
        }
        Matcher t = THREAD.matcher(path);
        if (t.matches() && !t.group(1).equals("search") && !t.group(1).equals("count") && InputText.isId(t.group(1))) {
            return threads.get(t.group(1)).map(r -> r.map(x -> p.sees(x.metadata())).orElse(true));
        }
        Matcher a = ASSISTANT.matcher(path);
        if (a.matches() && !a.group(1).equals("search") && !a.group(1).equals("count") && InputText.isId(a.group(1))) {
            return assistants.get(a.group(1)).map(r -> r.map(x -> p.sees(x.metadata())).orElse(true));
        }
        return Uni.createFrom().item(true);
    }

    private static String notFound(String path) {
        Matcher t = THREAD.matcher(path);
        if (t.matches()) {
            return "Thread " + t.group(1) + " not found";
        }
        Matcher a = ASSISTANT.matcher(path);
        return a.matches() ? "Assistant " + a.group(1) + " not found" : "not found";
    }

    private static String bearer(String authorization) {
        if (authorization == null || authorization.length() < 7 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return authorization.substring(7).strip();
    }

    private static void refuse(RoutingContext ctx, int status, String code, String detail) {
        if (status == 401) {
            ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"conduit\"");
        }
        if (!ctx.request().isEnded()) {
            ctx.response().putHeader(HttpHeaders.CONNECTION, "close"); // its body is not read
        }
        RouteErrors.write(ctx, new ErrorBody(status, code, detail));
    }
}
