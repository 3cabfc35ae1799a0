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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * A Jackson module, in the tests only, that records every class of ours for which a mapper builds a bean or enum
 * serializer or deserializer: the classes Jackson reads by reflection, which a native image must register
 * (NativeRegistrationTest). It changes nothing it sees. The tests' service file installs it into every mapper that
 * finds its modules (JsonCodec.MAPPER does), before that mapper builds anything.
 */
public final class JacksonTypeRecorder extends SimpleModule {

    private static final Set<String> SEEN = new ConcurrentSkipListSet<>();

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
        if (type.getName().startsWith("io.conduit.")) {
            SEEN.add(type.getName());
        }
    }

    /** The names of the classes of ours seen so far, sorted. */
    public static Set<String> seen() {
        return new TreeSet<>(SEEN);
    }
}
