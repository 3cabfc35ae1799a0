package io.conduit.http;

import io.vertx.core.http.HttpMethod;

/**
 * What anyone may call without credentials, and no caller's limits count: CORS preflights, the health checks, the
 * metrics unless closed, the chat page itself (its API calls need a key), the Agent Server's meta endpoints and API
 * description, the simulator.
 */
final class OpenPaths {

    private OpenPaths() {
    }

    static boolean open(String path, HttpMethod method, boolean metricsOpen) {
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
}
