/** DriveBC webcam API shape: our own cameras, in the real format. */
const cam = (id: number, name: string, caption: string, highway: number, lat: number, lng: number, isOn: boolean) => ({
  links: {
    imageDisplay: `https://simulator.invalid/cameras/${id}.jpg`,
    imageThumbnail: `https://simulator.invalid/cameras/tn/${id}.jpg`
  },
  id,
  isOn,
  shouldAppear: true,
  region: { name: "Lower Mainland" },
  highway: { number: highway, locationDescription: "Simulated" },
  camName: name,
  caption,
  orientation: "E",
  location: { latitude: lat, longitude: lng, elevation: 50 },
  imageStats: {
    md5: String(Date.now()),
    lastModified: { time: new Date().toISOString(), seconds: 30 },
    markedStale: false,
    markedDelayed: false,
    updatePeriodMean: 600
  }
})

/** Phase ≥ 1: the Port Mann camera goes dark (deactivated in feature history). */
export const webcamFeed = (phase: number) => ({
  links: { self: "https://simulator.invalid/webcam/api/v1/webcams" },
  webcams: [
    cam(9001, "Port Mann Bridge - E", "Hwy 1 at Port Mann Bridge, looking east.", 1, 49.2203, -122.8126, phase < 1),
    cam(9002, "Coquihalla Summit - N", "Hwy 5 at the summit, looking north.", 5, 49.6153, -121.0975, true),
    cam(9003, "Malahat - S", "Hwy 1 on the Malahat, looking south.", 1, 48.5612, -123.5697, true)
  ]
})
