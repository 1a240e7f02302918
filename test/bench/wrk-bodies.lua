-- wrk script of `npm run bench` (test/bench/wrk.ts): POSTs bodies picked at random from a file of one
-- JSON body a line, and counts acknowledged writes only when asked (reading every answer costs wrk time).

local bodies = {}
local threads = {}
acknowledged = 0

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(os.getenv("WRK_BODIES")) do
    bodies[#bodies + 1] = line
  end
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  local token = os.getenv("WRK_TOKEN") or ""
  if token ~= "" then
    wrk.headers["Authorization"] = "Bearer " .. token
  end
  math.randomseed(os.time() + tonumber(tostring(bodies):match("0x(%x+)") or "0", 16))
end

function request()
  return wrk.format(nil, nil, nil, bodies[math.random(#bodies)])
end

-- wrk decides once, from the script's top level, whether to read answers at all.
if os.getenv("WRK_COUNT") == "1" then
  function response(status, headers, body)
    if status == 200 and not body:find('"errors"', 1, true) then
      acknowledged = acknowledged + 1
    end
  end
end

function done(summary, latency, requests)
  local counted = 0
  for _, thread in ipairs(threads) do
    counted = counted + (thread:get("acknowledged") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    'WRK {"requests":%d,"micros":%d,"p50":%d,"p99":%d,"failures":%d,"acknowledged":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout, counted))
end
