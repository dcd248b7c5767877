package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

/**
 * Reads Kubernetes' protobuf encoding ({@code application/vnd.kubernetes.protobuf}) of the built-in kinds in
 * {@link ProtoSchema} into the JSON object the store keeps. A current kubectl sends it for everything its typed clients
 * create ({@code kubectl create namespace probe} among them) and, unlike CBOR, never falls back to JSON on a 415, so the
 * API server has to read it. The body is the magic {@code k8s\0} followed by a {@code runtime.Unknown} (1 the type
 * meta: 1 apiVersion, 2 kind; 2 the raw message; 3 content encoding; 4 content type). Zero values are left out, as
 * Go's {@code omitempty} leaves them out of JSON; a field the schema does not know is skipped when it carries nothing
 * (gogo-protobuf writes every non-pointer field) and refused (415, naming it) when it carries a value.
 */
final class Protobuf {

    static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Protobuf() {}

    /** The object a protobuf request body holds. */
    static ObjectNode decode(byte[] body) {
        if (body.length < 4 || body[0] != 'k' || body[1] != '8' || body[2] != 's' || body[3] != 0) {
            throw new ApiError(400, "BadRequest", "the protobuf body does not start with Kubernetes' prefix k8s\\0");
        }
        Reader envelope = new Reader(body, 4, body.length);
        String apiVersion = "";
        String kind = "";
        Reader raw = null;
        while (envelope.more()) {
            int tag = envelope.varint32();
            if (tag >>> 3 == 1 && (tag & 7) == 2) {
                Reader meta = envelope.sub();
                while (meta.more()) {
                    int t = meta.varint32();
                    String s = meta.string(t & 7);
                    apiVersion = t >>> 3 == 1 ? s : apiVersion;
                    kind = t >>> 3 == 2 ? s : kind;
                }
            } else if (tag >>> 3 == 2 && (tag & 7) == 2) {
                raw = envelope.sub();
            } else if (tag >>> 3 == 3 && (tag & 7) == 2) {
                if (!envelope.string(2).isEmpty()) {
                    throw unsupported("a content encoding");
                }
            } else {
                envelope.skip(tag & 7);
            }
        }
        if (ProtoSchema.message(kind) == null || raw == null) {
            throw unsupported("the kind " + (kind.isEmpty() ? "(none)" : kind));
        }
        ObjectNode out = NODES.objectNode().put("apiVersion", apiVersion).put("kind", kind);
        message(raw, kind, out);
        return out;
    }

    private static ApiError unsupported(String what) {
        return new ApiError(
                415,
                "UnsupportedMediaType",
                "the simulated cluster does not read " + what + " in " + MEDIA_TYPE
                        + " - accepted media types include: application/json, application/yaml");
    }

    private static void message(Reader r, String name, ObjectNode out) {
        Map<Integer, ProtoSchema.Field> fields = ProtoSchema.message(name);
        while (r.more()) {
            int tag = r.varint32();
            ProtoSchema.Field f = fields.get(tag >>> 3);
            if (f == null) {
                if (!r.skipEmpty(tag & 7)) {
                    throw unsupported("field " + (tag >>> 3) + " of " + name);
                }
            } else {
                field(r, tag & 7, f, out);
            }
        }
    }

    private static void field(Reader r, int wire, ProtoSchema.Field f, ObjectNode out) {
        switch (f.type()) {
            case "m", "my", "mq" -> mapEntry(r.sub(), f.type(), out, f.name());
            case "s", "y", "i", "b", "t", "q", "n" -> {
                Object v = scalar(r, wire, f.type());
                if (f.repeated()) {
                    add(array(out, f.name()), v);
                } else if (v != null && (f.keepZero() || !isZero(v))) {
                    put(out, f.name(), v);
                }
            }
            default -> {
                ObjectNode sub = NODES.objectNode();
                message(r.sub(), f.type(), sub);
                if (f.repeated()) {
                    array(out, f.name()).add(sub);
                } else if (f.inline()) {
                    out.setAll(sub);
                } else if (!sub.isEmpty()) {
                    out.set(f.name(), sub);
                }
            }
        }
    }

    /** A scalar: String, Long or Boolean (a {@code Time} as RFC 3339 text, null when unset). */
    private static Object scalar(Reader r, int wire, String type) {
        return switch (type) {
            case "s" -> r.string(wire);
            case "y" -> Base64.getEncoder().encodeToString(r.bytes(wire));
            case "i" -> r.varint(wire);
            case "b" -> r.varint(wire) != 0;
            case "q" -> {
                Reader q = r.sub();
                String s = "";
                while (q.more()) {
                    int t = q.varint32();
                    s = t >>> 3 == 1 ? q.string(t & 7) : skipped(q, t);
                }
                yield s;
            }
            case "t" -> time(r.sub());
            default -> intOrString(r.sub());
        };
    }

    private static String skipped(Reader r, int tag) {
        r.skip(tag & 7);
        return "";
    }

    private static Object time(Reader t) {
        long seconds = 0;
        while (t.more()) {
            int tag = t.varint32();
            if (tag >>> 3 == 1) {
                seconds = t.varint(tag & 7);
            } else {
                t.skip(tag & 7);
            }
        }
        return seconds == 0 ? null : Instant.ofEpochSecond(seconds).toString();
    }

    private static Object intOrString(Reader r) {
        long type = 0;
        long intVal = 0;
        String strVal = "";
        while (r.more()) {
            int tag = r.varint32();
            switch (tag >>> 3) {
                case 1 -> type = r.varint(tag & 7);
                case 2 -> intVal = r.varint(tag & 7);
                case 3 -> strVal = r.string(tag & 7);
                default -> r.skip(tag & 7);
            }
        }
        return type == 1 ? strVal : (Object) intVal;
    }

    private static void mapEntry(Reader entry, String type, ObjectNode out, String field) {
        String key = "";
        Object value = "";
        while (entry.more()) {
            int tag = entry.varint32();
            if (tag >>> 3 == 1) {
                key = entry.string(tag & 7);
            } else if (tag >>> 3 == 2) {
                value = scalar(entry, tag & 7, type.equals("m") ? "s" : type.equals("my") ? "y" : "q");
            } else {
                entry.skip(tag & 7);
            }
        }
        ObjectNode map = out.get(field) instanceof ObjectNode o ? o : out.putObject(field);
        put(map, key, value);
    }

    private static boolean isZero(Object v) {
        return v.equals("") || v.equals(0L) || v.equals(false);
    }

    private static ArrayNode array(ObjectNode out, String field) {
        return out.get(field) instanceof ArrayNode a ? a : out.putArray(field);
    }

    private static void add(ArrayNode array, Object v) {
        if (v instanceof String s) {
            array.add(s);
        } else if (v instanceof Long l) {
            array.add(l);
        } else if (v instanceof Boolean b) {
            array.add(b);
        }
    }

    private static void put(ObjectNode out, String field, Object v) {
        if (v instanceof String s) {
            out.put(field, s);
        } else if (v instanceof Long l) {
            out.put(field, l);
        } else if (v instanceof Boolean b) {
            out.put(field, b);
        }
    }

    /** Reads protobuf's wire format from a slice of bytes. */
    static final class Reader {
        private final byte[] buf;
        private int pos;
        private final int end;

        Reader(byte[] buf, int from, int to) {
            this.buf = buf;
            this.pos = from;
            this.end = to;
        }

        boolean more() {
            return pos < end;
        }

        int varint32() {
            return (int) varint(0);
        }

        long varint(int wire) {
            if (wire != 0) {
                throw malformed();
            }
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw malformed();
                }
                byte b = buf[pos++];
                v |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return v;
                }
            }
            throw malformed();
        }

        byte[] bytes(int wire) {
            Reader s = sub(wire);
            byte[] out = new byte[s.end - s.pos];
            System.arraycopy(buf, s.pos, out, 0, out.length);
            return out;
        }

        String string(int wire) {
            return new String(bytes(wire), StandardCharsets.UTF_8);
        }

        Reader sub() {
            return sub(2);
        }

        private Reader sub(int wire) {
            if (wire != 2) {
                throw malformed();
            }
            long length = varint(0);
            if (length < 0 || length > end - pos) {
                throw malformed();
            }
            Reader s = new Reader(buf, pos, pos + (int) length);
            pos += (int) length;
            return s;
        }

        void skip(int wire) {
            skipEmpty(wire);
        }

        /** Skips a value; whether it carried nothing (zero, or a message of nothing but zeros). */
        boolean skipEmpty(int wire) {
            switch (wire) {
                case 0 -> {
                    return varint(0) == 0;
                }
                case 1, 5 -> {
                    int n = wire == 1 ? 8 : 4;
                    if (end - pos < n) {
                        throw malformed();
                    }
                    boolean zero = true;
                    for (int i = 0; i < n; i++) {
                        zero &= buf[pos++] == 0;
                    }
                    return zero;
                }
                case 2 -> {
                    return sub().allEmpty();
                }
                default -> throw malformed();
            }
        }

        private boolean allEmpty() {
            try {
                while (more()) {
                    if (!skipEmpty(varint32() & 7)) {
                        return false;
                    }
                }
                return true;
            } catch (ApiError e) {
                return false;
            }
        }

        private static ApiError malformed() {
            return new ApiError(400, "BadRequest", "the protobuf body is malformed");
        }
    }
}
