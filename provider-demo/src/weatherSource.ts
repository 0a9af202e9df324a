/** Current conditions, the body of `GET /weather`. */
export type WeatherReport = {
  city: string;
  temperatureC: number;
  conditions: string;
  windKph: number;
};

/** A multi-day outlook, the body of `GET /forecast`. */
export type Forecast = {
  city: string;
  days: { day: number; highC: number; lowC: number; conditions: string }[];
};

/**
 * Where the priced routes get their data. It is injectable because the spec asks handlers to be low-cost and
 * side-effect-free: the demo's data is fixed, and tests substitute a source that throws or that acts between
 * verify and settle.
 */
export type WeatherSource = {
  current: () => WeatherReport | Promise<WeatherReport>;
  forecast: () => Forecast | Promise<Forecast>;
};

/** The demo's fixed data: the same answer every time, so a re-served payment gets the same resource. */
export const demoWeatherSource: WeatherSource = {
  current: () => ({ city: "Zurich", temperatureC: 18, conditions: "sunny", windKph: 9 }),
  forecast: () => ({
    city: "Zurich",
    days: [
      { day: 1, highC: 21, lowC: 11, conditions: "sunny" },
      { day: 2, highC: 19, lowC: 12, conditions: "cloudy" },
      { day: 3, highC: 16, lowC: 10, conditions: "rain" },
    ],
  }),
};
