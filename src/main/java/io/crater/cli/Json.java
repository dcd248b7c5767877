package io.crater.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as the client handles it: plain maps (in the server's field order), lists, strings, numbers, booleans and
 * null, read and written with jackson-core's streaming parser and generator. (Jackson's object mapper would do the
 * same with a start-up cost every command pays.) Pretty output is Jackson's default pretty printer.
 */
public final class Json {

    private static final JsonFactory FACTORY = new JsonFactory();

    private Json() {}

    public static Object parse(byte[] json) throws IOException {
        try (JsonParser p = FACTORY.createParser(json)) {
            return document(p);
        }
    }

    public static Object parse(String json) throws IOException {
        try (JsonParser p = FACTORY.createParser(json)) {
            return document(p);
        }
    }

    /** Compact bytes, for request bodies. */
    public static byte[] bytes(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(g, value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    public static String compact(Object value) {
        return new String(bytes(value), StandardCharsets.UTF_8);
    }

    /** Indented text, for people and {@code -o json}. */
    public static String pretty(Object value) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            write(g, value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }

    private static Object document(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == null) {
            return null;
        }
        Object v = value(p, t);
        if (p.nextToken() != null) {
            throw new IOException("more than one JSON value");
        }
        return v;
    }

    private static Object value(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                for (JsonToken k = p.nextToken(); k != JsonToken.END_OBJECT; k = p.nextToken()) {
                    String name = p.currentName();
                    m.put(name, value(p, p.nextToken()));
                }
                return m;
            }
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    l.add(value(p, e));
                }
                return l;
            }
            case VALUE_STRING -> {
                return p.getText();
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                return p.getNumberValue();
            }
            case VALUE_TRUE -> {
                return Boolean.TRUE;
            }
            case VALUE_FALSE -> {
                return Boolean.FALSE;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new IOException("unexpected " + t);
        }
    }

    private static void write(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof Iterable<?> l) {
            g.writeStartArray();
            for (Object o : l) {
                write(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof BigInteger b) {
            g.writeNumber(b);
        } else if (v instanceof BigDecimal b) {
            g.writeNumber(b);
        } else if (v instanceof Number n) {
            g.writeNumber(n.doubleValue());
        } else if (v instanceof Enum<?> || v instanceof CharSequence || v instanceof java.time.temporal.Temporal) {
            g.writeString(v.toString());
        } else {
            throw new IllegalArgumentException(
                    "not a JSON value: " + v.getClass().getName());
        }
    }
}
