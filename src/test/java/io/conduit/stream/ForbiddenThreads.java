package io.conduit.stream;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;

/** The tests' authorization: threads whose id starts with {@code forbidden-} may not be seen; every other may. */
@ApplicationScoped
public class ForbiddenThreads implements ThreadAccess {

    @Override
    public Uni<Boolean> allows(String threadId, Map<String, List<String>> headers) {
        return Uni.createFrom().item(!threadId.startsWith("forbidden-"));
    }
}
