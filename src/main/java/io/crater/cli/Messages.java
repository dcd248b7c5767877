package io.crater.cli;

import java.text.MessageFormat;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/** The client's own words in the terminal's language (messages.properties, messages_zh_CN.properties). */
public final class Messages {

    private final ResourceBundle bundle;
    private final Locale locale;

    public Messages(Locale locale) {
        this.locale = locale;
        this.bundle = ResourceBundle.getBundle("io.crater.cli.messages", locale, Messages.class.getClassLoader());
    }

    public Locale locale() {
        return locale;
    }

    public boolean chinese() {
        return "zh".equals(locale.getLanguage());
    }

    /** The text for {@code key} with {@code {0}}, {@code {1}} … filled in. */
    public String get(String key, Object... args) {
        String pattern;
        try {
            pattern = bundle.getString(key);
        } catch (MissingResourceException e) {
            throw new IllegalStateException("no message " + key, e);
        }
        Object[] plain = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            // Numbers as they are: MessageFormat would load the locale's number formats (and group digits).
            plain[i] = args[i] instanceof Number n ? n.toString() : args[i];
        }
        return new MessageFormat(pattern, locale).format(plain);
    }
}
