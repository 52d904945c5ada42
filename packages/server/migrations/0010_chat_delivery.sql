-- Delivery reports (POST /chat/channels/delivered): the newest message delivered to each member's devices.
ALTER TABLE chat_members ADD COLUMN last_delivered_message_id text;
