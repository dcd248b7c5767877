package io.crater.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table: left-aligned columns three spaces apart, sized by display width (a Chinese character is
 * two cells), written a page at a time so a long list starts printing at once; the header is printed once and
 * later pages keep the widths already used.
 */
public final class Table {

    private final List<String> headers;
    private final boolean showHeaders;
    private final int[] widths;
    private boolean headerDone;

    public Table(List<String> headers, boolean showHeaders) {
        this.headers = headers;
        this.showHeaders = showHeaders;
        this.widths = new int[headers.size()];
    }

    /** Prints rows (one list of cells per row); {@code colour} paints a cell after its padding is computed. */
    public void print(PrintStream out, List<List<String>> rows, Painter colour) {
        for (int i = 0; i < widths.length; i++) {
            if (showHeaders && !headerDone) {
                widths[i] = Math.max(widths[i], width(headers.get(i)));
            }
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], width(row.get(i)));
            }
        }
        if (showHeaders && !headerDone) {
            out.println(line(headers, Painter.NONE));
        }
        headerDone = true;
        for (List<String> row : rows) {
            out.println(line(row, colour));
        }
    }

    private String line(List<String> cells, Painter colour) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i) == null ? "" : cells.get(i);
            boolean last = i == cells.size() - 1;
            b.append(colour.paint(i, cell));
            if (!last) {
                b.append(" ".repeat(widths[i] - width(cell) + 3));
            }
        }
        return b.toString().stripTrailing();
    }

    /** Paints a cell (ANSI colours) or leaves it as it is. */
    public interface Painter {
        Painter NONE = (column, cell) -> cell;

        String paint(int column, String cell);
    }

    /** Terminal cells a string takes: East Asian wide and full-width characters count two. */
    public static int width(String s) {
        if (s == null) {
            return 0;
        }
        int w = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            w += wide(cp) ? 2 : 1;
            i += Character.charCount(cp);
        }
        return w;
    }

    static boolean wide(int cp) {
        return (cp >= 0x1100 && cp <= 0x115F)
                || (cp >= 0x2E80 && cp <= 0xA4CF)
                || (cp >= 0xAC00 && cp <= 0xD7A3)
                || (cp >= 0xF900 && cp <= 0xFAFF)
                || (cp >= 0xFE30 && cp <= 0xFE4F)
                || (cp >= 0xFF00 && cp <= 0xFF60)
                || (cp >= 0xFFE0 && cp <= 0xFFE6)
                || (cp >= 0x20000 && cp <= 0x3FFFD);
    }

    /** The rows of cells for some items, one extractor per column. */
    public static List<List<String>> rows(List<Object> items, List<java.util.function.Function<Object, String>> cols) {
        List<List<String>> rows = new ArrayList<>();
        for (Object item : items) {
            List<String> row = new ArrayList<>();
            for (var c : cols) {
                String v = c.apply(item);
                row.add(v == null ? "" : v);
            }
            rows.add(row);
        }
        return rows;
    }
}
