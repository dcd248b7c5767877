package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.text.MessageFormat;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The client speaks both languages completely, and every message is a pattern MessageFormat accepts. */
class CliMessagesTest {

    static Properties load(String name) throws IOException {
        Properties p = new Properties();
        try (InputStream in = CliMessagesTest.class.getResourceAsStream("/io/crater/cli/" + name)) {
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        return p;
    }

    @Test
    void noKeyIsGivenTwice() throws IOException {
        for (String name : new String[] {"messages.properties", "messages_zh_CN.properties"}) {
            java.util.Map<String, Integer> seen = new java.util.HashMap<>();
            try (InputStream in = CliMessagesTest.class.getResourceAsStream("/io/crater/cli/" + name)) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8)
                        .lines()
                        .map(String::strip)
                        .filter(l -> !l.isEmpty() && !l.startsWith("#") && l.contains("="))
                        .forEach(l -> seen.merge(l.substring(0, l.indexOf('=')).strip(), 1, Integer::sum));
            }
            // A second definition silently replaces the first, changing text elsewhere.
            assertThat(seen.entrySet().stream().filter(e -> e.getValue() > 1).map(java.util.Map.Entry::getKey))
                    .as(name)
                    .isEmpty();
        }
    }

    @Test
    void englishAndChineseHaveTheSameKeysAndValidPatterns() throws IOException {
        Properties en = load("messages.properties");
        Properties zh = load("messages_zh_CN.properties");
        assertThat(zh.stringPropertyNames()).isEqualTo(en.stringPropertyNames());
        for (Properties p : new Properties[] {en, zh}) {
            for (String key : p.stringPropertyNames()) {
                String pattern = p.getProperty(key);
                assertThat(pattern).as(key).isNotBlank();
                new MessageFormat(pattern);
            }
        }
        for (String key : en.stringPropertyNames()) {
            assertThat(zh.getProperty(key))
                    .as("zh-CN " + key + " is translated")
                    .isNotEqualTo(en.getProperty(key));
        }
    }
}
