package io.crater.volcano;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** A lifecycle policy of a Volcano Job or task ({@code event(s)} → {@code action}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VolcanoPolicy {
    public String event;
    public List<String> events;
    public String action;
    public Integer exitCode;
    public List<Integer> exitCodes;
    public String timeout;
}
