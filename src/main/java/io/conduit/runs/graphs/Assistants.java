package io.conduit.runs.graphs;

import io.conduit.auth.Principal;
import io.conduit.runs.Assistant;
import io.conduit.runs.AssistantStore;
import io.conduit.runs.InputText;
import io.conduit.runs.NotFoundException;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Assistants as clients see them: one system assistant per registered graph (id = LangGraph's uuid5 of the graph
 * id, so the graph id works as an assistant id too), plus those created through the API, kept in the store.
 */
public final class Assistants {

    private static final Instant BOOT = Instant.now();

    private final GraphRegistry graphs;
    private final AssistantStore store;

    public Assistants(GraphRegistry graphs, AssistantStore store) {
        this.graphs = graphs;
        this.store = store;
    }

    public List<Assistant> system() {
        List<Assistant> out = new ArrayList<>();
        for (RegisteredGraph g : graphs.all()) {
            out.add(new Assistant(GraphRegistry.assistantId(g.graphId()), g.graphId(), g.graphId(), g.description(),
                    Map.of("configurable", Map.of()), Map.of(), Map.of("created_by", "system"), 1, BOOT, BOOT));
        }
        return out;
    }

    /** An assistant by id, or a graph id standing for its system assistant; fails with NotFoundException. */
    public Uni<Assistant> resolve(String ref) {
        for (Assistant a : system()) {
            if (a.assistantId().equals(ref) || a.graphId().equals(ref)) {
                return Uni.createFrom().item(a);
            }
        }
        if (!InputText.isId(ref)) {
            return Uni.createFrom().failure(new NotFoundException("Assistant " + ref + " not found"));
        }
        return store.get(ref).map(a -> a.orElseThrow(() -> new NotFoundException("Assistant " + ref + " not found")));
    }

    /** {@link #resolve(String)} for a caller: a stored assistant of another principal is not found; system ones are everyone's. */
    public Uni<Assistant> resolve(String ref, Principal caller) {
        return resolve(ref).invoke(a -> {
            if (!isSystem(a) && !caller.sees(a.metadata())) {
                throw new NotFoundException("Assistant " + ref + " not found");
            }
        });
    }

    private boolean isSystem(Assistant a) {
        return system().stream().anyMatch(s -> s.assistantId().equals(a.assistantId()));
    }

    public RegisteredGraph graph(Assistant a) {
        RegisteredGraph g = graphs.byGraphId(a.graphId());
        if (g == null) {
            throw new NotFoundException("Graph " + a.graphId() + " of assistant " + a.assistantId() + " is not served here");
        }
        return g;
    }

    public GraphRegistry graphs() {
        return graphs;
    }

    public AssistantStore store() {
        return store;
    }
}
