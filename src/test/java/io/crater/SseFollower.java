package io.crater;

import io.restassured.path.json.JsonPath;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A follower of an event stream in a test: reads its events on a thread of its own until closed or ended. */
public final class SseFollower implements AutoCloseable {

    /** One event: its name, id (null: none) and data. */
    public record Event(String name, String id, String data) {
        public JsonPath json() {
            return new JsonPath(data);
        }
    }

    public final List<Event> events = new CopyOnWriteArrayList<>();
    public final int status;
    public volatile boolean ended;
    private final InputStream body;
    private final Thread reader;

    private SseFollower(HttpResponse<InputStream> response) {
        this.status = response.statusCode();
        this.body = response.body();
        this.reader = new Thread(this::read, "sse-follower");
        reader.setDaemon(true);
        reader.start();
    }

    public static SseFollower open(String url, String token, String lastEventId) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "text/event-stream");
        if (lastEventId != null) {
            req.header("Last-Event-ID", lastEventId);
        }
        return new SseFollower(HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(req.build(), HttpResponse.BodyHandlers.ofInputStream()));
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String name = null;
            String id = null;
            StringBuilder data = new StringBuilder();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isEmpty()) {
                    if (name != null || data.length() > 0) {
                        events.add(new Event(name == null ? "message" : name, id, data.toString()));
                    }
                    name = null;
                    id = null;
                    data.setLength(0);
                } else if (line.startsWith(":")) {
                    events.add(new Event("comment", null, line.substring(1).strip()));
                } else if (line.startsWith("event:")) {
                    name = line.substring(6).strip();
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).strip();
                } else if (line.startsWith("data:")) {
                    data.append(data.length() > 0 ? "\n" : "")
                            .append(line.substring(5).strip());
                }
            }
        } catch (IOException e) {
            // closed by the test
        }
        ended = true;
    }

    public List<Event> named(String name) {
        List<Event> out = new ArrayList<>();
        for (Event e : events) {
            if (e.name().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }

    public List<String> sampleIds() {
        return named("sample").stream().map(Event::id).toList();
    }

    @Override
    public void close() throws IOException {
        body.close();
        reader.interrupt();
        try {
            reader.join(Duration.ofSeconds(5).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
