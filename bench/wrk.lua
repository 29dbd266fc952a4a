-- wrk script of bench/load.ts: each request drawn at random from a list file, and one JSON line of results.
-- Arguments (after wrk's "--"): the list file (one request per line: path, then "name: value" headers,
-- tab-separated) and the status every answer must have (0: none checked).

local requests = {}
local expect = 0
local threads = {}
unexpected = 0
seed = 0

function setup(thread)
  table.insert(threads, thread)
  thread:set("seed", #threads)
end

function init(args)
  expect = tonumber(args[2]) or 0
  for line in io.lines(args[1]) do
    local path, headers = nil, {}
    for field in string.gmatch(line, "[^\t]+") do
      if path == nil then
        path = field
      else
        local name, value = string.match(field, "^([^:]+): (.*)$")
        headers[name] = value
      end
    end
    -- Formatted once here, so a send is one table lookup.
    requests[#requests + 1] = wrk.format("GET", path, headers)
  end
  math.randomseed(os.time() * 1000 + seed)
  -- wrk counts statuses above 399 itself; a Lua response hook makes it copy every header and body,
  -- so it is kept only where the expected status is not a 2xx (revalidation's 304).
  if expect < 300 then response = nil end
end

function request()
  return requests[math.random(#requests)]
end

function response(status)
  if status ~= expect then unexpected = unexpected + 1 end
end

function done(summary, latency)
  local counted = 0
  for _, t in ipairs(threads) do counted = counted + (t:get("unexpected") or 0) end
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"durationUs":%d,"requests":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,"statusOver399":%d,"unexpectedStatus":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.duration, summary.requests, summary.bytes, e.connect, e.read, e.write, e.timeout, e.status, counted,
    latency:percentile(50), latency:percentile(99)))
end
