import type { Scenario } from '../../scenario-types';

const HANDLER_TS = `import messaging from '@react-native-firebase/messaging';
import { Linking } from 'react-native';

// Opens the screen a tapped push notification points at.
export function registerNotificationOpenHandler() {
  messaging().onNotificationOpenedApp((remoteMessage) => {
    const data = remoteMessage.data ?? {};
    if (data.type === 'order_update') {
      Linking.openURL(\`shopapp://orders/\${data.orderId}\`);
    }
  });
}
`;

const LINKING_TS = `import type { LinkingOptions } from '@react-navigation/native';
import type { RootStackParamList } from './types';

export const linking: LinkingOptions<RootStackParamList> = {
  prefixes: ['shopapp://', 'https://shop.example.com/app'],
  config: {
    screens: {
      Home: '',
      Order: 'orders/:orderId',
      Cart: 'cart',
    },
  },
};
`;

const ORDER_SCREEN = `import React from 'react';
import { FlatList, Text, View } from 'react-native';
import type { NativeStackScreenProps } from '@react-navigation/native-stack';
import { useOrders } from '../state/orders';
import { OrderLine } from '../components/OrderLine';
import type { RootStackParamList } from '../navigation/types';

type Props = NativeStackScreenProps<RootStackParamList, 'Order'>;

export function OrderScreen({ route }: Props) {
  const orders = useOrders();
  const order = orders.find((o) => o.id === route.params.orderId);
${Array.from({ length: 26 }, (_, i) => `  // layout note ${i + 1}`).join('\n')}
  return (
    <View>
      <Text>Order {route.params.orderId}</Text>
      <FlatList data={order.items} renderItem={({ item }) => <OrderLine line={item} />} />
    </View>
  );
}
`;

const SEND_JS = `// Sends the "your order changed" push to every device of the customer.
function payloadFor(device, order) {
  if (device.platform === 'android') {
    // FCM data message: keys and values must be strings.
    return { token: device.token, data: { type: 'order_update', order_id: String(order.id) } };
  }
  return {
    token: device.token,
    apns: { payload: { aps: { alert: { title: 'Order update', body: order.statusText } }, type: 'order_update', orderId: String(order.id) } },
  };
}
module.exports = { payloadFor };
`;

const NOTIFICATION_SERVICE = `import UserNotifications

// Rewrites the tap target of an order notification into the app's deep link.
class NotificationService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let content = (request.content.mutableCopy() as? UNMutableNotificationContent) ?? UNMutableNotificationContent()
        if let orderId = request.content.userInfo["orderId"] as? String {
            content.userInfo["url"] = "shopapp://orders/\\(orderId)"
        }
        contentHandler(content)
    }
}
`;

function logcat(): string {
  const tags = ['ActivityManager', 'chromium', 'ReactNativeJS', 'FirebaseMessaging', 'OkHttp', 'Choreographer', 'SurfaceFlinger', 'WindowManager'];
  const out: string[] = ['--------- beginning of main'];
  for (let i = 0; i < 140; i++) {
    const t = `06-03 18:42:${String(10 + Math.floor(i / 6)).padStart(2, '0')}.${String((i * 137) % 1000).padStart(3, '0')}`;
    if (i === 71) {
      out.push(`${t}  8812  8812 I FirebaseMessaging: onNotificationOpened data={type=order_update, order_id=100482}`);
      out.push(`${t}  8812  8840 I ReactNativeJS: Linking.openURL shopapp://orders/undefined`);
      out.push(`${t}  8812  8840 E ReactNativeJS: TypeError: Cannot read property 'items' of undefined`);
      out.push(`${t}  8812  8840 E ReactNativeJS: `);
      out.push(`${t}  8812  8840 E ReactNativeJS: This error is located at:`);
      out.push(`${t}  8812  8840 E ReactNativeJS:     in OrderScreen (at SceneView.tsx:132)`);
      out.push(`${t}  8812  8840 E ReactNativeJS:     in StaticContainer`);
      out.push(`${t}  8812  8841 E AndroidRuntime: FATAL EXCEPTION: mqt_native_modules`);
      out.push(`${t}  8812  8841 E AndroidRuntime: Process: com.acme.shopapp, PID: 8812`);
      out.push(`${t}  8812  8841 E AndroidRuntime: com.facebook.react.common.JavascriptException: TypeError: Cannot read property 'items' of undefined, stack:`);
      out.push(`${t}  8812  8841 E AndroidRuntime: OrderScreen@index.android.bundle:1:884213 (OrderScreen.tsx:42)`);
      out.push(`${t}  8812  8841 E AndroidRuntime: renderWithHooks@index.android.bundle:1:402118`);
      continue;
    }
    const tag = tags[(i * 7) % tags.length]!;
    out.push(`${t}  ${1200 + ((i * 31) % 7000)}  ${1300 + ((i * 17) % 7000)} ${i % 9 === 0 ? 'W' : 'D'} ${tag}: ${['frame skipped 3', 'onResume', 'GET https://api.shop.example.com/v2/orders 200 (212ms)', 'setSurface', 'token refreshed', 'Displayed com.acme.shopapp/.MainActivity: +612ms', 'gc freed 1822KB'][i % 7]}`);
  }
  return out.join('\n') + '\n';
}

const REPORT =
  "Root cause: the Android push payload carries the order id as `order_id` (snake_case; backend/push/send.js, FCM data message), but app/src/notifications/handler.ts builds the deep link from `data.orderId`, which is undefined on Android. The app opens shopapp://orders/undefined, OrderScreen finds no order and crashes on `order.items` (TypeError: Cannot read property 'items' of undefined, OrderScreen.tsx:42). The logcat at 18:42:21 shows exactly that: data={type=order_update, order_id=100482} then Linking.openURL shopapp://orders/undefined.\n\niOS looks unaffected: the APNs payload uses orderId.\n\nFix (not applied): read `data.order_id ?? data.orderId` in handler.ts; optionally make OrderScreen show 'Order not found' when the order is missing.\n\nFiles: app/src/notifications/handler.ts, app/src/screens/OrderScreen.tsx, backend/push/send.js. (adb isn't installed here, so I used the saved logcat in logs/.)";

/** A subagent finds the root cause; the main session checks one thing and has not acted on the finding yet. */
export const subagentPushCrashUnfixed: Scenario = {
  name: 'subagent-push-crash-unfixed',
  covers: "a React Native crash: a subagent finds the root cause (order_id vs orderId), the main session verifies iOS and has not fixed anything yet",
  live: true,
  repo: {
    'app/src/notifications/handler.ts': HANDLER_TS,
    'app/src/navigation/linking.ts': LINKING_TS,
    'app/src/screens/OrderScreen.tsx': ORDER_SCREEN,
    'backend/push/send.js': SEND_JS,
    'ios/ShopApp/NotificationService.swift': NOTIFICATION_SERVICE,
    'logs/logcat-crash-2024-06-03.txt': logcat(),
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'The Android app crashes when you tap an order-update push notification (Play Console shows it since 3.2.0). Send an agent to dig into it and find the root cause, but do not fix anything yet. A logcat from a crashing device is in logs/.',
          actions: [
            {
              tool: 'Agent',
              description: 'Find the push-tap crash cause',
              prompt: 'The Android app (React Native, app/) crashes when the user taps an order-update push notification. Find the root cause: start with logs/logcat-crash-2024-06-03.txt, then follow the notification handling code and the backend that sends the push (backend/push/). Report the cause, the evidence and the files; change nothing.',
              actions: [
                { tool: 'Bash', command: 'adb logcat -d -s ReactNativeJS:E AndroidRuntime:E', description: 'Read the device log' },
                { tool: 'Bash', command: "grep -n -B9 -A4 'FATAL EXCEPTION' logs/logcat-crash-2024-06-03.txt", description: 'Find the crash in the saved logcat' },
                { tool: 'Read', path: 'app/src/notifications/handler.ts' },
                { tool: 'Read', path: 'app/src/navigation/linking.ts' },
                { tool: 'Read', path: 'app/src/screens/OrderScreen.tsx' },
                { tool: 'Read', path: 'backend/push/send.js' },
                { text: REPORT },
              ],
            },
            {
              text: "The agent found it: on Android the push data has `order_id`, but app/src/notifications/handler.ts reads `data.orderId`, so the app opens shopapp://orders/undefined and OrderScreen crashes on `order.items` (OrderScreen.tsx:42). The logcat shows the payload order_id=100482 followed by the undefined link. It believes iOS is unaffected because the APNs payload uses orderId. Nothing has been changed.",
            },
          ],
        },
        {
          prompt: 'Wait, are you sure iOS is fine? Check the iOS side yourself before we touch anything.',
          actions: [
            { tool: 'Read', path: 'ios/ShopApp/NotificationService.swift' },
            { tool: 'Bash', command: "grep -n 'orderId\\|order_id' backend/push/send.js ios/ShopApp/NotificationService.swift", description: 'Where each platform names the order id' },
            {
              text: "Checked: iOS is fine. backend/push/send.js puts `orderId` in the APNs payload, and ios/ShopApp/NotificationService.swift reads userInfo[\"orderId\"] to build shopapp://orders/<id>. Only the Android FCM data message uses `order_id`.\n\nStill nothing changed. Next: in app/src/notifications/handler.ts build the link from `data.order_id ?? data.orderId`, and guard app/src/screens/OrderScreen.tsx so a missing order shows \"Order not found\" instead of crashing. Shall I go ahead?",
            },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'ok, where are we on the crash?' },
  facts: [
    { id: 'objective: the Android crash on tapping the push', in: ['objective'], pattern: 'crash|push|notification' },
    { id: "the subagent's root cause: order_id vs orderId", in: ['facts', 'done', 'objective', 'next_valid_action', 'errors', 'waiting_on'], pattern: 'order_id' },
    { id: 'next (or awaiting the go-ahead): fix handler.ts', in: ['next_valid_action', 'waiting_on'], pattern: 'handler\\.ts|order_id|go.?ahead' },
    { id: 'handler.ts named', in: ['files', 'facts', 'next_valid_action'], pattern: 'notifications/handler\\.ts' },
  ],
  antiFacts: [
    { id: 'the unfixed handler.ts shown as changed', in: ['files'], pattern: '(modified|edited|changed|written).*handler\\.ts' },
    { id: 'the finished iOS check as the objective', in: ['objective'], pattern: 'iOS|NotificationService' },
    { id: "the subagent's missing adb as the session's error", in: ['errors'], pattern: 'adb' },
  ],
};
