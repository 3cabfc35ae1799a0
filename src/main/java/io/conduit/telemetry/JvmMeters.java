package io.conduit.telemetry;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.quarkus.micrometer.runtime.binder.JVMInfoBinder;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.vertx.http.HttpServerStart;
import io.quarkus.vertx.http.HttpsServerStart;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The JVM's meters (memory, GC, heap pressure, threads, class loading, jvm_info), the set Quarkus binds with
 * {@code quarkus.micrometer.binder.jvm}, bound here instead once the HTTP server is up, on a worker thread.
 * Quarkus binds them on the start's main thread, where they took a tenth of it (the heap-pressure meter alone a
 * third of that), for series that nobody scrapes before the service is ready. Same names and tags as Quarkus'.
 */
@ApplicationScoped
public class JvmMeters {

    private final AtomicBoolean bound = new AtomicBoolean();
    private final List<AutoCloseable> open = new ArrayList<>();

    void serverStarted(@ObservesAsync HttpServerStart started, MeterRegistry registry) {
        bind(registry);
    }

    void tlsServerStarted(@ObservesAsync HttpsServerStart started, MeterRegistry registry) {
        bind(registry); // a TLS-only deployment fires no HttpServerStart
    }

    private void bind(MeterRegistry registry) {
        if (!bound.compareAndSet(false, true)) {
            return; // one event per server (plain, TLS): bind once
        }
        JvmGcMetrics gc = new JvmGcMetrics();
        JvmHeapPressureMetrics pressure = new JvmHeapPressureMetrics();
        synchronized (open) {
            open.add(gc);
            open.add(pressure);
        }
        for (MeterBinder b : List.of(new ClassLoaderMetrics(), pressure, new JvmMemoryMetrics(), new JvmThreadMetrics(), gc,
                new JVMInfoBinder())) {
            b.bindTo(registry);
        }
    }

    void shutdown(@Observes ShutdownEvent event) throws Exception {
        synchronized (open) {
            for (AutoCloseable c : open) {
                c.close(); // GC notification listeners
            }
            open.clear();
        }
    }
}
