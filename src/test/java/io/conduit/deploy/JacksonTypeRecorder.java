package io.conduit.deploy;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * A Jackson module, in the tests only, that records every class of the app's (not the tests' own) for which a mapper builds a bean or enum
 * serializer or deserializer: the classes Jackson reads by reflection, which a native image must register
 * (NativeRegistrationTest). It changes nothing it sees. The tests' service file installs it into every mapper that
 * finds its modules (JsonCodec.MAPPER does), before that mapper builds anything.
 */
public final class JacksonTypeRecorder extends SimpleModule {

    /**
     * What this class loader's copy saw. Quarkus loads the app (and this module, and the mapper) anew for each test
     * profile, so each copy also appends what it sees to one file per test JVM, which {@link #seen()} reads: the
     * whole JVM's record, whichever profile saw what. (Not System properties: other code expects only strings there.)
     */
    private static final Set<String> SEEN = new ConcurrentSkipListSet<>();
    private static final Path FILE = Path.of("target", "native", "jackson-types-" + ProcessHandle.current().pid() + ".txt");

    public JacksonTypeRecorder() {
        super("conduit-type-recorder");
        setSerializerModifier(new BeanSerializerModifier() {
            @Override
            public JsonSerializer<?> modifySerializer(SerializationConfig c, BeanDescription d, JsonSerializer<?> s) {
                record(d.getBeanClass());
                return s;
            }

            @Override
            public JsonSerializer<?> modifyEnumSerializer(SerializationConfig c, JavaType t, BeanDescription d, JsonSerializer<?> s) {
                record(d.getBeanClass());
                return s;
            }
        });
        setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public JsonDeserializer<?> modifyDeserializer(DeserializationConfig c, BeanDescription d, JsonDeserializer<?> s) {
                record(d.getBeanClass());
                return s;
            }

            @Override
            public JsonDeserializer<?> modifyEnumDeserializer(DeserializationConfig c, JavaType t, BeanDescription d, JsonDeserializer<?> s) {
                record(d.getBeanClass());
                return s;
            }
        });
    }

    private static void record(Class<?> type) {
        if (type.getName().startsWith("io.conduit.") && !testCode(type) && SEEN.add(type.getName())) {
            try {
                Files.createDirectories(FILE.getParent());
                Files.writeString(FILE, type.getName() + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The tests' own types (their fixtures) are no concern of a native image of the app. */
    private static boolean testCode(Class<?> type) {
        var source = type.getProtectionDomain().getCodeSource();
        return source != null && source.getLocation().getPath().contains("/test-classes");
    }

    /** The names of the app's classes seen so far in this JVM, sorted. */
    public static Set<String> seen() {
        Set<String> all = new TreeSet<>(SEEN);
        try {
            if (Files.exists(FILE)) {
                Files.readAllLines(FILE).stream().filter(l -> !l.isBlank()).forEach(all::add);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all;
    }
}
