package io.conduit.telemetry;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Spans kept in memory for the tests, in place of an OTLP exporter (only made at all where the SDK is on). */
@ApplicationScoped
public class SpanCollector {

    @Produces
    @Singleton
    InMemorySpanExporter exporter() {
        return InMemorySpanExporter.create();
    }
}
