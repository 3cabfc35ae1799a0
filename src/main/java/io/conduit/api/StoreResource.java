package io.conduit.api;

import io.conduit.runs.NotFoundException;
import jakarta.ws.rs.core.Context;
import io.vertx.core.http.HttpServerRequest;
import io.conduit.http.Callers;
import io.conduit.auth.Principal;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.JsonMaps;
import io.conduit.runs.submission.JsonFields;
import io.conduit.store.ItemRules;
import io.conduit.store.Namespaces;
import io.conduit.store.Store;
import io.conduit.store.StoreFilter;
import io.conduit.store.StoreItem;
import io.conduit.store.StoreSearch;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The long-term store over HTTP, as the LangGraph SDK's {@code client.store} calls it: {@code PUT /store/items}
 * (204), {@code GET /store/items?namespace=a.b&key=k} (the item, or {@code null}), {@code DELETE /store/items} (204),
 * {@code POST /store/items/search} ({@code {items}}), {@code POST /store/namespaces} ({@code {namespaces}}). Items
 * carry {@code namespace, key, value, created_at, updated_at} (and {@code score} in a search with a query).
 */
@Path("/store")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class StoreResource {

    private static final int MAX_LIMIT = 1000;
    private static final TypeReference<Map<String, Object>> MAP_TYPE = new TypeReference<>() {
    };
    private final Store store;

    StoreResource(Store store) {
        this.store = store;
    }

    @PUT
    @Path("/items")
    public Uni<Response> put(JsonNode body, @Context HttpServerRequest request) {
        JsonNode b = object(body);
        List<String> namespace = owned(namespace(b.get("namespace"), "namespace", false), request);
        String key = key(b.get("key"));
        JsonNode value = b.get("value");
        if (value == null || !value.isObject()) {
            throw new InvalidInputException("value", "must be a JSON object");
        }
        Duration ttl = ttl(b.get("ttl"));
        JsonNode index = b.get("index"); // LangGraph's: which fields to embed; there is no vector search here, so none
        if (index != null && !index.isNull() && !index.isBoolean() && !(index.isArray() && allText(index))) {
            throw new InvalidInputException("index", "is false, or a list of field paths");
        }
        return store.put(namespace, key, JsonMaps.copy(JsonCodec.MAPPER.convertValue(value, MAP_TYPE)), ttl).replaceWith(Response.noContent().build());
    }

    @GET
    @Path("/items")
    public Uni<JsonNode> get(@QueryParam("namespace") String namespace, @QueryParam("key") String key, @QueryParam("refresh_ttl") String refresh,
                             @Context HttpServerRequest request) {
        if (namespace == null || namespace.isEmpty()) {
            throw new InvalidInputException("namespace", "is required: the labels joined by '.'");
        }
        List<String> ns = Namespaces.split(namespace);
        check(ns, "namespace", false);
        owned(ns, request);
        String k = key(key == null ? null : JsonCodec.MAPPER.getNodeFactory().textNode(key));
        if (refresh != null && !refresh.equals("true") && !refresh.equals("false")) {
            throw new InvalidInputException("refresh_ttl", "is true or false");
        }
        return store.get(ns, k, "true".equals(refresh))
                .map(item -> item.<JsonNode>map(StoreResource::json).orElse(JsonCodec.MAPPER.nullNode()));
    }

    @DELETE
    @Path("/items")
    public Uni<Response> delete(JsonNode body, @Context HttpServerRequest request) {
        JsonNode b = object(body);
        return store.delete(owned(namespace(b.get("namespace"), "namespace", false), request), key(b.get("key"))).replaceWith(Response.noContent().build());
    }

    @POST
    @Path("/items/search")
    public Uni<ObjectNode> search(JsonNode body, @Context HttpServerRequest request) {
        JsonNode b = body == null || body.isNull() ? JsonCodec.MAPPER.createObjectNode() : object(body);
        Principal caller = Callers.of(request);
        List<String> asked = namespace(b.get("namespace_prefix"), "namespace_prefix", true);
        List<String> prefix = caller.narrowPrefix(asked);
        Map<String, Object> filter = Map.of();
        JsonNode f = b.get("filter");
        if (f != null && !f.isNull()) {
            if (!f.isObject()) {
                throw new InvalidInputException("filter", "must be an object of value fields");
            }
            filter = JsonCodec.MAPPER.convertValue(f, MAP_TYPE);
            try {
                StoreFilter.check(filter);
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException("filter", e.getMessage());
            }
        }
        JsonNode q = b.get("query");
        if (q != null && !q.isNull() && !q.isTextual()) {
            throw new InvalidInputException("query", "must be a string");
        }
        if (prefix == null) {
            ObjectNode none = JsonCodec.MAPPER.createObjectNode();
            none.putArray("items");
            return Uni.createFrom().item(none);
        }
        StoreSearch s = new StoreSearch(prefix, filter, q == null || q.isNull() ? null : q.asText(),
                count(b.get("limit"), "limit", 10), count(b.get("offset"), "offset", 0), JsonFields.bool(b, "refresh_ttl", false));
        return store.search(s).map(items -> {
            ObjectNode out = JsonCodec.MAPPER.createObjectNode();
            ArrayNode list = out.putArray("items");
            // a search from the root finds every namespace's items: the caller sees its own users/… only
            items.stream().filter(i -> caller.mayUse(i.namespace())).forEach(i -> list.add(json(i)));
            return out;
        });
    }

    @POST
    @Path("/namespaces")
    public Uni<ObjectNode> namespaces(JsonNode body, @Context HttpServerRequest request) {
        JsonNode b = body == null || body.isNull() ? JsonCodec.MAPPER.createObjectNode() : object(body);
        Principal caller = Callers.of(request);
        List<String> prefix = namespace(b.get("prefix"), "prefix", true);
        List<String> suffix = namespace(b.get("suffix"), "suffix", true);
        JsonNode depth = b.get("max_depth");
        Integer maxDepth = null;
        if (depth != null && !depth.isNull()) {
            if (!depth.isIntegralNumber() || depth.asInt() < 1) {
                throw new InvalidInputException("max_depth", "must be a whole number, 1 or more");
            }
            maxDepth = depth.asInt();
        }
        return store.namespaces(prefix, suffix, maxDepth, count(b.get("limit"), "limit", 100), count(b.get("offset"), "offset", 0)).map(all -> {
            ObjectNode out = JsonCodec.MAPPER.createObjectNode();
            ArrayNode list = out.putArray("namespaces");
            all.stream().filter(caller::mayUse).forEach(ns -> ns.forEach(list.addArray()::add));
            return out;
        });
    }

    /** A namespace inside another user's {@code users/…} is not found, as if it were empty. */
    private static List<String> owned(List<String> namespace, HttpServerRequest request) {
        if (!Callers.of(request).mayUse(namespace)) {
            throw new NotFoundException("Namespace " + String.join(".", namespace) + " not found");
        }
        return namespace;
    }

    static ObjectNode json(StoreItem i) {
        ObjectNode n = JsonCodec.MAPPER.createObjectNode();
        ArrayNode ns = n.putArray("namespace");
        i.namespace().forEach(ns::add);
        n.put("key", i.key());
        n.set("value", JsonCodec.MAPPER.valueToTree(i.value()));
        n.put("created_at", i.createdAt().toString());
        n.put("updated_at", i.updatedAt().toString());
        if (i.score() != null) {
            n.put("score", i.score());
        }
        return n;
    }

    private static JsonNode object(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new InvalidInputException("body", "must be a JSON object");
        }
        return body;
    }

    private static List<String> namespace(JsonNode n, String field, boolean mayBeEmpty) {
        if (n == null || n.isNull()) {
            if (mayBeEmpty) {
                return List.of();
            }
            throw new InvalidInputException(field, "is required: a list of labels");
        }
        if (!n.isArray()) {
            throw new InvalidInputException(field, "must be a list of labels");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode label : n) {
            if (!label.isTextual()) {
                throw new InvalidInputException(field, "labels must be strings");
            }
            out.add(label.asText());
        }
        check(out, field, mayBeEmpty);
        return List.copyOf(out);
    }

    private static void check(List<String> namespace, String field, boolean mayBeEmpty) {
        try {
            if (mayBeEmpty) {
                Namespaces.checkLabels(namespace);
            } else {
                Namespaces.check(namespace);
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(field, e.getMessage());
        }
    }

    private static String key(JsonNode k) {
        if (k == null || !k.isTextual() || k.asText().isEmpty()) {
            throw new InvalidInputException("key", "is required: a non-empty string");
        }
        try {
            ItemRules.checkKey(k.asText());
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("key", e.getMessage());
        }
        return k.asText();
    }

    private static boolean allText(JsonNode array) {
        for (JsonNode n : array) {
            if (!n.isTextual()) {
                return false;
            }
        }
        return true;
    }

    /** LangGraph's ttl: minutes, a number; absent or null: none. */
    private static Duration ttl(JsonNode t) {
        if (t == null || t.isNull()) {
            return null;
        }
        if (!t.isNumber() || t.asDouble() <= 0) {
            throw new InvalidInputException("ttl", "is a time to live in minutes, a positive number, or null");
        }
        return Duration.ofMillis(Math.round(t.asDouble() * 60_000));
    }

    private static int count(JsonNode n, String field, int absent) {
        if (n == null || n.isNull()) {
            return absent;
        }
        if (!n.isIntegralNumber() || n.asLong() < 0 || n.asLong() > MAX_LIMIT) {
            throw new InvalidInputException(field, "must be a whole number from 0 to " + MAX_LIMIT);
        }
        return n.asInt();
    }
}
