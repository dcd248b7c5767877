package io.crater.platform;

import java.util.List;

/**
 * One page of a keyset-paginated list: the items and the cursor of the next page (null on the last).
 *
 * @param <T> item type
 */
public record Page<T>(List<T> items, String nextCursor) {

    /** A page of items; when {@code more}, the cursor is the id of the last item shown. */
    public static <T> Page<T> of(List<T> items, boolean more, java.util.function.ToLongFunction<T> id) {
        return new Page<>(
                items, more && !items.isEmpty() ? Long.toString(id.applyAsLong(items.get(items.size() - 1))) : null);
    }

    /** Limits a page size to 1..200, default 50. */
    public static int limit(Integer requested) {
        if (requested == null) {
            return 50;
        }
        if (requested < 1 || requested > 200) {
            throw ApiException.badRequest("InvalidRequest", "limit must be between 1 and 200", null);
        }
        return requested;
    }

    /** Parses a cursor that is an id; a malformed one is a 400. */
    public static long afterId(String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return 0;
        }
        try {
            return Long.parseLong(cursor);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("InvalidCursor", "the cursor is not one this API returned", null);
        }
    }
}
