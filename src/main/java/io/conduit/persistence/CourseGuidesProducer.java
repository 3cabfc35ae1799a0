package io.conduit.persistence;

import io.conduit.blueprints.tutor.CourseGuides;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The tutor's course guides, in Postgres only: the tutor asks for them only with {@code guide.source=postgres}, which
 * it refuses unless the stores are in Postgres, so the pool is taken then and not before.
 */
@ApplicationScoped
public class CourseGuidesProducer {

    @Produces
    @Singleton
    CourseGuides courseGuides(Instance<Pool> pool) {
        return new PostgresCourseGuides(pool.get());
    }
}
