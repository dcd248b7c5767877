package io.crater.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/** Reading the API's JSON (plain maps and lists) and writing its values the way a table shows them. */
public final class Values {

    private Values() {}

    public static String str(Object o) {
        return o == null ? null : o.toString();
    }

    /** The value at a dotted path ({@code job.state}, {@code pods.0.node}), or null. */
    public static Object at(Object root, String path) {
        Object cur = root;
        for (String part : path.split("\\.")) {
            if (cur instanceof Map<?, ?> m) {
                cur = m.get(part);
            } else if (cur instanceof List<?> l && part.matches("\\d+")) {
                int i = Integer.parseInt(part);
                cur = i < l.size() ? l.get(i) : null;
            } else {
                return null;
            }
        }
        return cur;
    }

    public static String text(Object root, String path) {
        return str(at(root, path));
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    public static List<Object> list(Object o) {
        if (o instanceof List<?> l) {
            return List.copyOf(l.stream().map(x -> x == null ? "" : x).toList());
        }
        return List.of();
    }

    /** The {@code items} of a page, or the list itself. */
    public static List<Object> items(Object page) {
        return page instanceof List<?> ? list(page) : list(map(page).get("items"));
    }

    /** A duration as a table shows it: {@code 45s}, {@code 12m}, {@code 3h5m}, {@code 2d4h}. */
    public static String duration(Duration d) {
        long s = Math.max(0, d.getSeconds());
        if (s < 60) {
            return s + "s";
        }
        long m = s / 60;
        if (m < 60) {
            return m + "m";
        }
        long h = m / 60;
        if (h < 48) {
            return h + "h" + (m % 60 == 0 ? "" : (m % 60) + "m");
        }
        return (h / 24) + "d" + (h % 24 == 0 ? "" : (h % 24) + "h");
    }

    /** The time since an ISO instant (kubectl's AGE), or "" when absent or unreadable. */
    public static String age(Object iso, Instant now) {
        Instant t = instant(iso);
        return t == null ? "" : duration(Duration.between(t, now));
    }

    /** The time between two ISO instants, the second defaulting to now; "" when the first is absent. */
    public static String between(Object from, Object to, Instant now) {
        Instant a = instant(from);
        if (a == null) {
            return "";
        }
        Instant b = instant(to);
        return duration(Duration.between(a, b == null ? now : b));
    }

    public static Instant instant(Object iso) {
        if (iso == null) {
            return null;
        }
        try {
            return Instant.parse(iso.toString());
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Micro-units of a currency as money: {@code 1234567} → {@code 1.23}. */
    public static String money(Object micros, Object currency) {
        if (!(micros instanceof Number n)) {
            return "";
        }
        java.math.BigDecimal v =
                java.math.BigDecimal.valueOf(n.longValue(), 6).setScale(2, java.math.RoundingMode.HALF_EVEN);
        return v.toPlainString() + (currency == null ? "" : " " + currency);
    }

    /** Bytes in binary units as people read them: {@code 512 B}, {@code 1.5 KiB}, {@code 12.0 GiB}. */
    public static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int u = -1;
        long whole = n;
        while (whole >= 1024 * 1024 && u < units.length - 2) {
            whole /= 1024;
            u++;
        }
        java.math.BigDecimal v = java.math.BigDecimal.valueOf(whole)
                .divide(java.math.BigDecimal.valueOf(1024), 1, java.math.RoundingMode.HALF_EVEN);
        return v.toPlainString() + " " + units[u + 1];
    }
}
