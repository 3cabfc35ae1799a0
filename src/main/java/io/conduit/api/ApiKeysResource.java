package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.auth.ApiKey;
import io.conduit.auth.ApiKeyStore;
import io.conduit.auth.ApiKeys;
import io.conduit.auth.Authenticator;
import io.conduit.kernel.TimeOrderedIds;
import io.conduit.runs.InputText;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.submission.JsonFields;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admin API of API keys (admins only: AccessGuard refuses others with 403): create one (the key is in the answer,
 * once; only its hash is kept), list them (never a key), revoke one.
 */
@Path("/admin/api-keys")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ApiKeysResource {

    private final ApiKeyStore keys;
    private final Authenticator auth;

    ApiKeysResource(ApiKeyStore keys, Authenticator auth) {
        this.keys = keys;
        this.auth = auth;
    }

    /** {@code {owner, admin?, name?}}: the key's principal, whether it is an admin, a label for people. */
    @POST
    public Uni<Map<String, Object>> create(JsonNode body) {
        JsonNode b = JsonFields.body(body);
        String owner = JsonFields.text(b, "owner");
        if (owner == null || !InputText.isId(owner)) {
            throw new InvalidInputException("owner", "is required: the principal id the key authenticates (1 to 128 letters, digits or - _ . : @)");
        }
        String key = ApiKeys.newKey();
        ApiKey stored = new ApiKey(TimeOrderedIds.next(), ApiKeys.hash(key), owner, JsonFields.bool(b, "admin", false),
                JsonFields.text(b, "name"), Instant.now(), null);
        return keys.create(stored).map(k -> {
            Map<String, Object> out = json(k);
            out.put("key", key);
            return out;
        });
    }

    @GET
    public Uni<List<Map<String, Object>>> list() {
        return keys.list().map(all -> all.stream().map(ApiKeysResource::json).toList());
    }

    @DELETE
    @Path("/{id}")
    public Uni<Response> revoke(@PathParam("id") String id) {
        return keys.revoke(id, Instant.now()).map(done -> {
            if (!done) {
                throw new NotFoundException("API key " + id + " not found (or already revoked)");
            }
            auth.forget(id);
            return Response.noContent().build();
        });
    }

    private static Map<String, Object> json(ApiKey k) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key_id", k.keyId());
        m.put("owner", k.owner());
        m.put("admin", k.admin());
        m.put("name", k.name());
        m.put("created_at", k.createdAt().toString());
        m.put("revoked_at", k.revokedAt() == null ? null : k.revokedAt().toString());
        return m;
    }
}
