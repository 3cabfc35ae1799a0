package io.conduit.kernel;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * A {@link Codec} backed by Jackson. The mapper fails on unknown properties: state that does not match its declared
 * type is an error to report, not something to drop silently. Nulls are left out of what it writes (a missing
 * property reads back as null), which keeps stored rows small.
 */
public final class JsonCodec<T> implements Codec<T> {

    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .findAndAddModules()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    private final JavaType type;
    /**
     * Writes with the declared type, not the runtime one: a List<Message> keeps its elements' type ids. Made at the
     * first encode: {@code writerFor} looks up the type's serializer at once, and codecs made at start (a tool's
     * argument type, a graph's channels) then cost the start a tenth of its main thread. An ObjectWriter is immutable
     * (final fields), so a racy first publication is safe; at worst two threads each make one.
     */
    private ObjectWriter writer;

    private JsonCodec(JavaType type) {
        this.type = type;
    }

    public static <T> JsonCodec<T> of(Class<T> type) {
        return new JsonCodec<>(MAPPER.constructType(type));
    }

    public static <T> JsonCodec<T> of(JavaType type) {
        return new JsonCodec<>(type);
    }

    public JavaType type() {
        return type;
    }

    @Override
    public String encode(T value) {
        try {
            ObjectWriter w = writer;
            if (w == null) {
                writer = w = MAPPER.writerFor(type);
            }
            return w.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot encode " + type + ": " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public T decode(String json) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a valid " + type.getRawClass().getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public T fromLive(Object value) {
        if (value == null || type.getRawClass().isInstance(value) && !type.isContainerType()) {
            return (T) value;
        }
        return MAPPER.convertValue(value, type);
    }
}
